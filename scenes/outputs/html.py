"""The HTML the tool writes (the lecture page, its explorable, the numbers tables) is rendered
from the Jinja2 templates in ``templates/`` with autoescape on: every value a template is given
is HTML-escaped, so a token label such as ``<script>`` can only ever show as text. The few values
the project writes itself and that must reach the page as they are (its CSS, its scripts, whose
hashes the Content-Security-Policy allows, the policy itself, JSON made safe for a ``<script>``
element) are marked :func:`trusted`, and never hold a user's string unescaped.
"""

from __future__ import annotations

from functools import cache

import jinja2
from markupsafe import Markup


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("scenes.outputs", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a misspelt value fails, never renders as ""
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, **values) -> str:
    """``templates/<template>`` filled with ``values``, each escaped unless :func:`trusted`."""
    return _environment().get_template(template).render(**values)


def trusted(text: str) -> Markup:
    """``text`` into a template as it is: only for what the project wrote itself (CSS, a hashed
    script, the CSP, JSON escaped for a script element), never a user's string."""
    return Markup(text)
