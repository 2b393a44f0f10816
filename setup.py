"""Package discovery for the ``common/`` -> ``minedraft`` and ``adapters/`` ->
``minedraft.adapters`` mapping (declared in pyproject.toml). Every package under either root
is found here, so a new subpackage cannot be left out of a wheel; all other metadata lives
in pyproject.toml."""

from setuptools import find_packages, setup

ROOTS = {"minedraft": "common", "minedraft.adapters": "adapters"}

packages = []
for name, root in ROOTS.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_packages(root)]

setup(packages=packages)
