"""Planted problems (host): see the ``problems`` module. Each plant is a function registered with
``@register(name, point, description)``."""

from __future__ import annotations
