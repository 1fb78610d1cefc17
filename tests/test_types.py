"""Types that catch a slip (issue 43): a number role of one head names its head.

Issue 39's slip: the single-head scenes tagged their numbers ``("scaled", 0, i, j)``, head 0's
role, while they explained another head; every check passed on the examples that explain head 0.
:class:`scenes.kit.roles.HeadRole` cannot be made without its head (a ``TypeError`` naming the
role), and its head is a :data:`~scenes.kit.roles.Head`, so the type checker (``make lint``)
refuses a bare ``0``. A HeadRole is the tuple every reader of roles already knows.
"""

from __future__ import annotations

import copy
import json
import pickle
import textwrap

import pytest

import attention_core as ac
from scenes.kit import roles
from scenes.kit.roles import Head, HeadRole, RoleArityError


@pytest.fixture(scope="module")
def trace():
    return ac.trace_example(ac.PRESETS["two-heads"])


def test_a_head_role_is_the_role_tuple_with_its_head(trace):
    r = HeadRole("scaled", Head(1), 2, 0)
    assert r == ("scaled", 1, 2, 0) and hash(r) == hash(("scaled", 1, 2, 0))
    assert (r.kind, r.head) == ("scaled", 1)
    assert roles.resolve(trace, r) == trace.heads[1].scaled[2, 0] != trace.heads[0].scaled[2, 0]
    assert json.loads(json.dumps(r)) == ["scaled", 1, 2, 0]  # the notes write roles as JSON
    for again in (copy.copy(r), copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert type(again) is HeadRole and again == r  # mobjects are copied, renders pickled


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda: HeadRole("scaled", Head(1), 2), "takes 3 indices (h, i, j), got 2"),
        (lambda: HeadRole("scaled", 2, 0), "takes 3 indices (h, i, j), got 2"),  # head left out
        (lambda: HeadRole("X", Head(0), 1, 2), "names no head"),  # X: (i, j), no head
        (lambda: HeadRole("no_such_role", Head(0)), "names no head"),
        (lambda: HeadRole("scaled", True, 2, 0), "head True is not a head index"),
        (lambda: HeadRole("scaled", -1, 2, 0), "head -1 is not a head index"),
    ],
)
def test_a_head_role_without_its_head_fails_when_made_naming_the_role(make, says):
    with pytest.raises(TypeError, match="role '") as err:
        make()
    assert says in str(err.value)
    assert isinstance(err.value, RoleArityError) or "head index" in says


def test_every_role_of_one_head_can_be_a_head_role():
    """The kinds whose first index is the head: each array of a head's trace among them."""
    head_kinds = [k for k in roles.ROLES if roles.indices_of(k)[:1] == ("h",)]
    assert set(roles.HEAD_ARRAYS) <= set(head_kinds)
    for kind in head_kinds:
        rest = (0,) * (len(roles.indices_of(kind)) - 1)
        assert HeadRole(kind, Head(0), *rest) == (kind, 0, *rest)


def test_the_type_checker_refuses_a_bare_head_index(tmp_path):
    """mypy (as ``make lint`` runs it) reports the slip, ``HeadRole("scores", 0, …)``, and not
    the role built from the explained head."""
    try:  # the test extra installs it (`make setup`): a skip here would check nothing
        from mypy import api
    except ImportError:
        pytest.fail("mypy is missing: run `make setup` (the test extra installs it)")
    snippet = tmp_path / "slip.py"
    snippet.write_text(
        textwrap.dedent(
            """
            from scenes.kit.roles import Head, HeadRole

            def explained(h: Head) -> None:
                HeadRole("scores", h, 1, 2)
                HeadRole("scores", 0, 1, 2)
            """
        )
    )
    # a cache of its own: the shared .mypy_cache keeps "slip"'s errors under an earlier run's
    # tmp path, and the check read none here (about 4 s cold)
    args = [str(snippet), "--follow-imports=silent", "--no-error-summary"]
    out, err, status = api.run([*args, "--cache-dir", str(tmp_path / "mypy_cache")])
    lines = [line for line in out.splitlines() if line.startswith(str(snippet))]
    assert status == 1, (out, err)
    assert len(lines) == 1 and ":6:" in lines[0] and 'expected "Head"' in lines[0], out
