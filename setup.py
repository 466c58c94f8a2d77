"""Build hook: ship the Hydra configs (conf/ of the source tree) inside the package as sparselab/conf, so that
`python -m sparselab.run` finds them from a wheel (sparselab.run.CONF_DIR). An editable install reads conf/ in
place. Everything else about the build is in pyproject.toml."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildPyWithConf(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        src = ROOT / "conf"
        if not src.is_dir():  # building from an sdist: MANIFEST.in put conf/ beside this file
            return
        dest = Path(self.build_lib) / "sparselab" / "conf"
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(src, dest, ignore=lambda d, names: [n for n in names
                                                           if not (n.endswith(".yaml") or (Path(d) / n).is_dir())])


setup(cmdclass={"build_py": BuildPyWithConf})
