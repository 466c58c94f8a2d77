"""The one downloader our fetches hand to pooch (``downloader=``): pooch's own ``HTTPDownloader`` starts every attempt
from byte 0, so a dropped connection on a 2 GB archive would start over; this one resumes with an HTTP Range request.

Bytes go to ``<dest dir>/.<name>.part`` (kept when the connection drops, so the next attempt, pooch's retry or a later
``fetch``, asks for the rest); a finished part is moved into the temporary file pooch gave, which pooch checks against
the sha256 and then renames into place, or deletes. A loader never sees a part: it reads only the registered names.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

USER_AGENT = "sparselab-data-fetch/0.2 (+pooch)"
CHUNK = 1 << 16


class ResumingDownloader:
    """``downloader(url, output_file, pooch)`` as pooch calls it; ``part``: where the bytes collect between attempts."""

    def __init__(self, part: Path, timeout: float = 60.0, progressbar: bool = False):
        self.part, self.timeout, self.progressbar = Path(part), timeout, progressbar

    def __call__(self, url: str, output_file, pooch=None, check_only: bool = False):
        import requests

        if check_only:
            return requests.head(url, timeout=self.timeout, allow_redirects=True).status_code == 200
        have = self.part.stat().st_size if self.part.is_file() else 0
        headers = {"User-Agent": USER_AGENT, **({"Range": f"bytes={have}-"} if have else {})}
        with requests.get(url, headers=headers, stream=True, timeout=self.timeout) as r:
            if have and r.status_code == 416:     # the part already holds the whole file (an earlier attempt died at the end)
                return self._finish(output_file)
            r.raise_for_status()
            if r.status_code != 206:
                have = 0                          # the server ignored the Range: start over
            total = have + int(r.headers.get("content-length", 0) or 0)
            bar = self._bar(total, have)
            try:
                with open(self.part, "ab" if have else "wb") as fh:
                    for chunk in r.iter_content(CHUNK):
                        fh.write(chunk)
                        if bar is not None:
                            bar.update(len(chunk))
            finally:
                if bar is not None:
                    bar.close()
        return self._finish(output_file)

    def _bar(self, total: int, have: int):
        if not self.progressbar:
            return None
        from tqdm import tqdm

        return tqdm(total=total or None, initial=have, unit="B", unit_scale=True, ncols=79, file=sys.stderr,
                    desc=self.part.name.removeprefix(".").removesuffix(".part")[:24])

    def _finish(self, output_file) -> None:
        os.replace(self.part, output_file)        # same folder: pooch's temporary file is beside the destination
