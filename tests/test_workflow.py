"""The GitHub Actions workflows (.github/workflows/) run the README's commands and publish what
the build writes where the launch buttons look for it. They cannot run here; this reads them."""

from __future__ import annotations

import re

import pytest
import yaml

from tools.editions.derive import PUBLISH
from tools.editions.publish import PAGES
from tools.project import BUILD, ROOT, notebooks_branch

WORKFLOWS = ROOT / ".github" / "workflows"


def load(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def triggers(workflow: dict) -> dict:
    return workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key `on` as True


def runs(job: dict) -> list[str]:
    return [step["run"] for step in job["steps"] if "run" in step]


def uses(job: dict, action: str) -> dict:
    found = [step for step in job["steps"] if step.get("uses", "").startswith(action + "@")]
    assert found, f"the job does not use {action}"
    return found[0]


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][\w-]*):", text, re.M))


def readme_commands() -> list[str]:
    """The commands of the README's "The two commands" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The two commands", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line.split("#")[0].strip() for line in block.splitlines() if line.strip().startswith("make ")]


def test_the_readme_names_two_commands():
    assert readme_commands() == ["make book", "make test"]


def test_ci_calls_the_readme_test_command():
    assert "make test" in ci_run()


def ci_run() -> str:
    return (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_site_workflow_runs_the_readme_commands():
    jobs = load("site.yml")["jobs"]
    commands = [c for job in ("test", "book") for c in runs(jobs[job])]
    for command in readme_commands():
        assert command in commands or (command == "make test" and "bash .ci/run" in runs(jobs["test"])), (
            f"the workflow does not run the README's `{command}`"
        )
    assert "make unit" in runs(jobs["unit"]), "no fast unit-test job"
    assert jobs["test"]["needs"] == jobs["book"]["needs"] == "unit"


def test_the_test_job_runs_every_part_of_make_test():
    """The test job runs .ci/run once per part, SHARD=k/N for k = 1..N (tests/sharding.py): the
    parts together are `make test`, and publishing waits for all of them."""
    jobs = load("site.yml")["jobs"]
    parts = jobs["test"]["strategy"]["matrix"]["shard"]
    n = len(parts)
    assert parts == list(range(1, n + 1)) and n >= 2
    assert jobs["test"]["env"]["SHARD"] == "${{ matrix.shard }}/" + str(n)
    assert jobs["test"]["strategy"]["fail-fast"] is False
    assert jobs["publish"]["needs"] == ["test", "book"]


def test_the_site_workflow_runs_the_browser_tests_as_ci_does():
    """The workflow's test job runs .ci/run, which makes sure Chromium and chromedriver are there
    and requires the browser tests (BA_REQUIRE_BROWSER=1) before `make test`: without it they may
    skip silently on a runner without a browser."""
    assert "bash .ci/run" in runs(load("site.yml")["jobs"]["test"])
    script = ci_run()
    assert "chromium chromium-driver" in script and "command -v chromedriver" in script
    assert script.index("export BA_REQUIRE_BROWSER=1") < script.index("\nmake test")
    browser_conftest = (ROOT / "tests" / "browser" / "conftest.py").read_text(encoding="utf-8")
    assert 'os.environ.get("BA_REQUIRE_BROWSER") == "1"' in browser_conftest


def test_every_make_call_of_a_workflow_is_a_makefile_target():
    targets = make_targets()
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for job in load(path.name)["jobs"].values():
            for command in runs(job):
                for target in re.findall(r"\bmake ([a-z][\w-]*)", command):
                    assert target in targets, f"{path.name} calls `make {target}`, which the Makefile lacks"


def test_the_site_workflow_runs_on_pushes_pull_requests_and_release_tags():
    on = triggers(load("site.yml"))
    assert "pull_request" in on and on["push"]["branches"] == ["main"] and on["push"]["tags"] == ["v*"]
    publish = load("site.yml")["jobs"]["publish"]
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')" and "test" in publish["needs"]


def test_publish_puts_the_student_notebooks_where_the_buttons_point():
    job = load("site.yml")["jobs"]["publish"]
    commands = runs(job)
    assert "make publish" in commands and "make wheel" in commands
    assert any("release_tag" in c and "GITHUB_REF_NAME" in c for c in commands), "the tag is not checked"
    branch = uses(job, "peaceiris/actions-gh-pages")["with"]
    assert branch["publish_branch"] == notebooks_branch()
    assert branch["publish_dir"] == str(PUBLISH.relative_to(ROOT))
    assert uses(job, "actions/upload-pages-artifact")["with"]["path"] == str(PAGES.relative_to(ROOT))
    assert PAGES.parent == BUILD
    assert job["permissions"] == {"contents": "write", "pages": "write", "id-token": "write"}


def test_the_link_check_runs_weekly():
    workflow = load("links.yml")
    (schedule,) = triggers(workflow)["schedule"]
    fields = schedule["cron"].split()
    assert len(fields) == 5 and fields[2] == "*" and fields[3] == "*" and fields[4] not in ("*",), (
        "the link check should run once a week"
    )
    assert any("make linkcheck" in c for job in workflow["jobs"].values() for c in runs(job))


@pytest.mark.parametrize("name", sorted(p.name for p in WORKFLOWS.glob("*.yml")))
def test_actions_are_pinned_to_a_major_version(name):
    for job in load(name)["jobs"].values():
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", step["uses"]), step["uses"]
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/setup-python@"):
                assert step["with"]["cache-dependency-path"] == "constraints.txt"


# ---------------------------------------------------------------------------------------------
# Lint: part of the test command, and of the commit hooks


def recipe(target: str) -> tuple[list[str], list[str]]:
    """A Makefile target's prerequisites and the lines of its recipe."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    found = re.search(rf"^{target}:([^\n#]*)(?:#[^\n]*)?\n((?:\t[^\n]*\n)*)", text, re.M)
    assert found, f"the Makefile has no target {target}"
    return found.group(1).split(), [line.strip() for line in found.group(2).splitlines()]


def test_the_test_commands_lint_first_with_ruff():
    _, lint = recipe("lint")
    assert lint == ["$(VENV)/bin/ruff check .", "$(VENV)/bin/ruff format --check ."]
    for target in ("test", "unit"):
        prerequisites, lines = recipe(target)
        assert prerequisites == ["lint"], f"`make {target}` does not lint first"
        assert "pytest" in lines[0]


def test_the_test_commands_keep_the_run_order_of_conftest():
    # without it, xdist re-sorts the scopes by size and a worker waits for a site being built
    for target in ("test", "test-times", "unit"):
        assert "--dist loadscope --no-loadscope-reorder" in expanded(recipe(target)[1][0])


def expanded(line: str) -> str:
    """A recipe line with the Makefile's $(TEST_ARGS) written out."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    value = re.search(r"^TEST_ARGS = ((?:.*\\\n)*.*)$", text, re.M).group(1)
    return line.replace("$(TEST_ARGS)", " ".join(value.replace("\\\n", " ").split()))


def test_make_unit_tries_fewer_property_examples_and_make_test_every_one():
    """`make unit` selects the "unit" hypothesis profile; `make test` (and so CI) runs the default one."""
    assert "--hypothesis-profile=unit" in recipe("unit")[1][0]
    assert "--hypothesis-profile" not in recipe("test")[1][0]


def test_the_unit_profile_caps_the_examples_and_the_default_profile_keeps_them():
    import hypothesis_profiles
    from hypothesis import settings

    current = settings.get_current_profile_name()
    try:
        settings.load_profile("default")
        assert hypothesis_profiles.examples(200).max_examples == 200
        settings.load_profile(hypothesis_profiles.UNIT)
        assert hypothesis_profiles.examples(200).max_examples == hypothesis_profiles.UNIT_EXAMPLES < 200
        assert hypothesis_profiles.examples(5).max_examples == 5
        assert settings().max_examples == hypothesis_profiles.UNIT_EXAMPLES  # a bare @given too
    finally:
        settings.load_profile(current)


def test_ruff_is_pinned_once_for_the_tests_the_hooks_and_conda():
    import tomllib

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (spec,) = [s for s in extra["optional-dependencies"]["test"] if s.startswith("ruff")]
    pins = [line for line in (ROOT / "constraints.txt").read_text().splitlines() if line.startswith("ruff==")]
    assert pins == [spec.replace(" ", "")], "ruff's pin in constraints.txt and the test extra differ"
    assert f"  - {pins[0]}\n" in (ROOT / "environment.yml").read_text(encoding="utf-8")


def test_the_commit_hooks_run_the_pinned_ruff():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    assert hooks["ruff-check"]["entry"].split()[:3] == [".venv/bin/ruff", "check", "--fix"]
    assert hooks["ruff-format"]["entry"].split()[:2] == [".venv/bin/ruff", "format"]
    for hook in hooks.values():
        assert hook["language"] == "system" and "python" in hook["types_or"]
        assert "--force-exclude" in hook["entry"], (
            "files passed by pre-commit would skip pyproject's excludes"
        )


def test_the_labs_also_run_in_colabs_own_runtime_image():
    """The publish workflow runs the labs inside Colab's public runtime image, with the install
    cell as Colab runs it (tools/editions/colab.py --here); it cannot run here."""
    job = load("site.yml")["jobs"]["colab"]
    assert job["container"]["image"].startswith("us-docker.pkg.dev/colab-images/public/runtime")
    command = next(c for c in runs(job) if "tools.editions.colab" in c)
    assert "--here" in command and "--wheel dist/" in command
    assert any("pip wheel" in c and "--wheel-dir dist" in c for c in runs(job))
