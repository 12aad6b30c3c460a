"""CANN machines: the hosts dialog, the host panel and the GUI prompter for SSH secrets and host keys."""
