"""Thin PySide6 layer: widgets build, bind to core models and forward user actions."""
