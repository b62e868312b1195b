# Builds the `dlca` Python package with CMake for pip (pyproject.toml): configures the project in
# a folder of its own (or reuses DLCA_BUILD_DIR, an existing build of this checkout), builds the
# _dlca module, and packages the folder the build makes (build/python/dlca: the module, its
# __init__.py and its copy of the data folder).
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
STAGING = ROOT / "build" / "python-package"  # setuptools' own build and egg-info folders


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(dlca VERSION ([0-9.]+)", text)
    if not found:
        sys.exit("setup.py: CMakeLists.txt names no project version")
    return found.group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        given = os.environ.get("DLCA_BUILD_DIR")
        build = Path(given).resolve() if given else STAGING / "cmake"
        if not (build / "CMakeCache.txt").exists():
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                            "-DPython3_EXECUTABLE=" + os.path.realpath(sys.executable)], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "_dlca", "dlca_data", "-j", jobs],
                       check=True)
        package = build / "python" / "dlca"
        if not any(package.glob("_dlca*.so")):
            sys.exit(f"setup.py: {package}: the build made no _dlca module (pybind11 and Python's "
                     "headers are needed: bash tools/install_deps.sh)")
        destination = Path(self.get_ext_fullpath(ext.name)).parent
        shutil.copytree(package, destination, dirs_exist_ok=True)


STAGING.mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    packages=["dlca"],
    package_dir={"dlca": "python/dlca"},
    ext_modules=[Extension("dlca._dlca", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    options={"build": {"build_base": str(STAGING)}, "egg_info": {"egg_base": str(STAGING)}},
)
