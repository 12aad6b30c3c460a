"""Services that talk to hosts, tools and files (Qt-free)."""
