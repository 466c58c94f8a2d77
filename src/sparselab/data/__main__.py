"""``python -m sparselab.data {list,fetch,check}`` -- see src/sparselab/data/README.md.

Exit codes: 0 OK; 1 fetch failed / some checked dataset is partial or missing; 2 usage error (e.g. unknown name).
``check`` without names checks what a profile reads (``--profile``, default cpu, as ``make data-check``); smoke reads
the excerpts shipped in the package (unless SPARSELAB_DATA or ``--root`` names a data root), so those are checked.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import excerpt
from .check import (PROFILE_NEEDS, PROFILES, UnknownDatasetError, check, check_dataset, dataset_names,
                    get_dataset, package_dir)
from .fetch import BASE_URL_ENV, FetchError, fetch


def _root(arg: str | None) -> Path:
    # An explicit --root wins; otherwise the usual resolution (SPARSELAB_DATA, then the default).
    from sparselab.locations import data_root

    return Path(arg).expanduser() if arg else data_root()


def _unknown(e: UnknownDatasetError) -> int:
    print(f"error: {e}", file=sys.stderr)
    return 2


def cmd_list(args: argparse.Namespace) -> int:
    """What is on disk under the data root (existence and size, as ``check --quick``), beside what upstream offers."""
    root = _root(args.root)
    print(f"data root: {root}")
    print(f"{'name':<22} {'on disk':<18} {'upstream':<9} {'files':>5} {'MB':>7}  description")
    for name in dataset_names():
        ds = get_dataset(name)
        size = ds.total_size
        mb = "      -" if not ds.files else (f"{size / 1e6:7.1f}" if size is not None else "      ?")
        here = "-" if not ds.files else check_dataset(name, root, quick=True)
        disk = here if isinstance(here, str) else f"{here.status} {here.n_files - len(here.missing)}/{here.n_files}"
        disk += " (pkg)" if getattr(here, "where", "") else ""
        print(f"{name:<22} {disk:<18} {ds.status:<9} {len(ds.files):>5} {mb}  {ds.title}")
        if ds.missing and ds.status != "complete" or not ds.files:
            print(f"{'':<22} upstream lacks: {'; '.join(ds.missing)}")
    return 0


def cmd_fetch(args: argparse.Namespace) -> int:
    if args.profile == "smoke":
        print("the smoke profile reads the excerpts shipped in the package (src/sparselab/data/excerpts): "
              "nothing to fetch")
        return 0
    names = list(args.names) or list(PROFILE_NEEDS.get(args.profile, ()))
    if not names:
        print("error: name the data sets to fetch, or give --profile cpu|paper", file=sys.stderr)
        return 2
    for name in names:  # validate every name before downloading anything
        try:
            get_dataset(name)
        except UnknownDatasetError as e:
            return _unknown(e)
    root = _root(args.root)
    for name in names:
        if args.profile and check_dataset(name, root, quick=True).status == "present":
            print(f"{name}: present under {root}" + (" (or in its installed package)" if package_dir(name) else ""))
            continue
        try:
            fetch(name, root=root, base_url=args.base_url, timeout=args.timeout)
        except FetchError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        except OSError as e:  # e.g. a read-only data root
            print(f"error: cannot write under {root / name}: {e} (use --root DIR or SPARSELAB_DATA)", file=sys.stderr)
            return 1
    return 0


def smoke_reads_excerpts(profile: str | None, root_arg: str | None) -> bool:
    """Whether the jobs of ``profile`` read the shipped excerpts: smoke, unless a data root is given (SPARSELAB_DATA
    wins over the smoke profile's ``data.root``, as in a run; ``--root`` checks that root as smoke would read it)."""
    return profile == "smoke" and not root_arg and not os.environ.get("SPARSELAB_DATA")


def cmd_check(args: argparse.Namespace) -> int:
    # named data sets are checked as asked; otherwise those the profile reads (the rest: "not needed")
    profile = args.profile or (None if args.names else "cpu")
    excerpts = smoke_reads_excerpts(profile, args.root)
    root = excerpt.ROOT if excerpts else _root(args.root)
    try:
        reports = check(args.names or None, root=root, quick=args.quick, profile=profile, excerpts=excerpts)
    except UnknownDatasetError as e:
        return _unknown(e)
    print(f"data root: {root}" + (" (profile smoke: the excerpts shipped in the package; SPARSELAB_DATA or --root "
                                  "checks a data root instead)" if excerpts else
                                  f" (profile {profile})" if profile else ""))
    for r in reports:
        print(r.summary())
    return 0 if all(r.ok for r in reports) else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m sparselab.data", description="Fetch and verify sparselab datasets.")
    sub = p.add_subparsers(dest="cmd", required=True)
    lst = sub.add_parser("list", help="what is on disk under the data root, and what upstream offers")
    lst.add_argument("--root", help="data root (default as for fetch)")
    lst.set_defaults(func=cmd_list)
    f = sub.add_parser("fetch", help="download dataset(s) into the data root, verifying sha256")
    f.add_argument("names", nargs="*", metavar="name")
    f.add_argument("--profile", choices=PROFILES, default=None,
                   help="fetch what this profile reads and is not there (make data PROFILE=...)")
    f.add_argument("--root", help="data root (default: $SPARSELAB_DATA, else ../shared/data, else ~/.cache/sparselab/data)")
    f.add_argument("--base-url", default=None, help=f"mirror of a data root to download from (default: ${BASE_URL_ENV}, else upstream URLs)")
    f.add_argument("--timeout", type=float, default=60.0, help="network timeout in seconds")
    f.set_defaults(func=cmd_fetch)
    c = sub.add_parser("check", help="verify local files against the registered checksums")
    c.add_argument("names", nargs="*", metavar="name")
    c.add_argument("--root", help="data root (default as for fetch)")
    c.add_argument("--quick", action="store_true", help="existence + size only, no hashing")
    c.add_argument("--profile", choices=PROFILES, default=None,
                   help="check what this profile reads; the others are 'not needed' (default without names: cpu)")
    c.set_defaults(func=cmd_check)
    args = p.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
