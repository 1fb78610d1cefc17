"""``batch``: render a course (a TOML file of examples × scenes × looks × formats)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from scenes.cli.app import BadInput, RenderFailed, cli, warn
from scenes.cli.options import timeout_option


def _batch_options(f):
    options = [
        click.option(
            "--executor",
            type=click.Choice(["local", "dask"]),
            default="local",
            show_default=True,
            help="local: a process pool; dask: a Dask cluster.",
        ),
        click.option(
            "--scheduler",
            metavar="tcp://HOST:8786",
            help="The Dask scheduler's address (with --executor dask).",
        ),
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(1, 64),
            default=None,
            help="Local processes (default: one per core).",
        ),
        click.option("--out", default="renders", show_default=True, type=click.Path()),
        click.option(
            "--retries",
            type=click.IntRange(0, 10),
            default=2,
            show_default=True,
            help="Times a failed task is tried again before it is reported.",
        ),
        timeout_option("task"),
        click.option(
            "--collect",
            is_flag=True,
            help="Workers send the finished files back to this "
            "machine, which writes them (for workers without a shared disk).",
        ),
        click.option("--dry-run", is_flag=True, help="Print the plan only."),
        click.option(
            "--verify",
            is_flag=True,
            help="Render nothing: hash every output of the course against its record and "
            "report each one (exit code 1 if any is missing, truncated or changed).",
        ),
        click.option("--force", is_flag=True, help="Re-render even what is up to date."),
        click.option("--quiet", is_flag=True, help="No progress lines."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


# a Dask address: [protocol://]host[:port], the host a name, an IPv4 address or [IPv6]
ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>\d{1,5})"
)


def _check_executor(executor: str, scheduler: str | None, collect: bool) -> None:
    if executor == "dask" and not scheduler:
        raise BadInput("--scheduler: give the Dask scheduler's address, e.g. tcp://HOST:8786")
    if scheduler and executor != "dask":
        raise BadInput("--scheduler: only with --executor dask")
    if scheduler:
        match = ADDRESS.fullmatch(scheduler)
        if match is None or not 0 < int(match["port"]) < 65536:  # Dask needs the port
            raise BadInput(
                f"--scheduler: {scheduler[:80]!r} is not an address; give "
                "tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"
            )
    if collect and executor != "dask":
        warn("--collect does nothing without --executor dask (local workers share this disk)")


def _plan(course_file: str, out: str):
    """The course, its jobs and its broken examples (BadInput for a bad course or --out)."""
    from scenes.cli.options import check_environment
    from scenes.pipeline.course import expand, load_course
    from scenes.pipeline.jobs import check_out_name, check_writable

    check_environment()
    try:
        check_out_name(out)
        course = load_course(course_file)
        check_writable(Path(out))
        job_list, broken = expand(course, Path(out))
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    return course, job_list, broken


def _make_course_folder(folder: Path) -> None:
    """The folder of the manifest, made before any render (a name the file system refuses
    is said now, not after the whole course has rendered)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or exc
        raise BadInput(f"course.name: cannot make the folder {str(folder)!r} ({why})") from None


def _dry_run(job_list, fresh: list[bool], broken) -> None:
    from scenes.pipeline.batch import label_of

    lines = [
        f"{'up to date' if ok else 'to render':<10}  {label_of(job)}"
        for job, ok in zip(job_list, fresh)
    ]
    lines += [f"{'broken':<10}  {label}: {error}" for label, error in broken]
    if lines:  # one write: a course of 60,000 tasks is listed in a moment
        click.echo("\n".join(lines))


@cli.command()
@click.argument("course_file", metavar="COURSE", type=click.Path(dir_okay=False))
@_batch_options
def batch(course_file, executor, scheduler, out, dry_run, verify, force, quiet, **run):
    """Render a course: every example × scene × language × theme × quality × format in COURSE
    (a TOML file, see docs/courses.md), skipping what is up to date; writes
    OUT/<course>/manifest.json. Exit code 0 only when every task succeeded."""
    from scenes.pipeline.batch import SchedulerError, run_batch
    from scenes.pipeline.jobs import up_to_date

    _check_executor(executor, scheduler, run["collect"])
    course, job_list, broken = _plan(course_file, out)
    if verify:
        from scenes.cli.options import verify as verify_outputs

        return verify_outputs(job_list, "batch")
    if not dry_run:
        _make_course_folder(Path(out) / course.name)
    fresh_jobs = [False] * len(job_list) if force else up_to_date(job_list)  # each once
    fresh = sum(fresh_jobs)
    click.echo(
        f"plan: {course.name}: {len(job_list)} tasks ({fresh} up to date, "
        f"{len(job_list) - fresh} to render), {len(broken)} broken example(s), "
        f"executor {executor}",
        err=True,
    )
    if dry_run:
        return _dry_run(job_list, fresh_jobs, broken)
    try:
        report = run_batch(
            course.name,
            job_list,
            broken,
            Path(out),
            executor=executor,
            scheduler=scheduler,
            workers=run.pop("jobs"),
            force=force,
            quiet=quiet,
            **run,
        )
    except SchedulerError as exc:  # unreachable, or refused by distributed: one line
        raise BadInput(str(exc)) from None
    except OSError as exc:
        raise RenderFailed(f"batch: {exc}") from None
    counts = report.counts()
    click.echo(
        f"done: {counts['rendered']} rendered, {counts['reused']} up to date, "
        f"{counts['failed']} failed in {report.wall:.1f} s; manifest: "
        f"{Path(out) / course.name / 'manifest.json'}",
        err=True,
    )
    if report.failed:
        first = report.failed[0]
        more = f" (and {len(report.failed) - 1} more)" if len(report.failed) > 1 else ""
        raise RenderFailed(f"{first.label}: {first.error}{more}")
