# mk/python.mk - the Python module mbsim (python/mbsim, docs/python.md): ctypes over a shared
# library per model that the module builds itself (mbgen, then cc; cached by content). make python
# copies the package to $(BUILD)/python (PYTHONPATH=build/python, or python/ as it is, finds
# build/mbgen and runtime/ in the tree above); make install installs it (mk/install.mk: group py).
# tests/test_python.sh runs the pytest suite tests/python/ (python3-numpy, python3-pytest: the
# python group of scripts/deps.sh).
PY_SRC := python/mbsim/__init__.py python/mbsim/_build.py python/mbsim/_shim.c
PY_PKG := $(PY_SRC:python/%=$(BUILD)/python/%)
$(BUILD)/python/mbsim/%: python/mbsim/%
	@mkdir -p $(@D)
	cp $< $@

.PHONY: python python-deps
## python: the Python module mbsim in build/python (PYTHONPATH=build/python; docs/python.md), with build/mbgen
python: python-deps $(PY_PKG) $(BUILD)/mbgen
python-deps:
	@scripts/deps.sh python

TEST_SCRIPTS += tests/test_python.sh
TEST_NEEDS   += python-deps $(PY_PKG) $(BUILD)/mbgen $(BUILD)/andrews_sim $(BUILD)/cartpole_sim \
                $(BUILD)/double_pendulum_sim $(BUILD)/slider_crank_sim $(BUILD)/suspension_sim \
                $(BUILD)/anl_pendulum_sim $(BUILD)/anl_slider_driven_sim
