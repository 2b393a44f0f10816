"""Backend adapters: thin translation from a backend's objects to minedraft core calls."""
