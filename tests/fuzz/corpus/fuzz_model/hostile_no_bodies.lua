-- expect: the model has no bodies
-- hostile model: no bodies (see tests/test_mbgen.sh)
ground { O = { 0, 0 } }
