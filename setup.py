"""Package discovery for the ``common/`` -> ``minedraft`` and ``adapters/`` ->
``minedraft.adapters`` mapping (declared in pyproject.toml). Every directory under either root
is a package here, data-only ones included (prompt sets, the shipped draft, examples), so a
new subpackage or data folder cannot be left out of a wheel; all other metadata lives in
pyproject.toml."""

from setuptools import find_namespace_packages, setup

ROOTS = {"minedraft": "common", "minedraft.adapters": "adapters"}

packages = []
for name, root in ROOTS.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(root, exclude=["*__pycache__*"])]

setup(packages=packages)
