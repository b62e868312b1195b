# Input-wise gates (--gates inputwise): they train, stop, resume bit for bit, and their models go
# through every tool that reads a model; options that act on softmax logits are refused.
set(g_train $<TARGET_FILE:train_checkerboard>)
set(g_dlca $<TARGET_FILE:dlca_program>)
# The paper's checkerboard, seed 1, input-wise: hard loss 0 first at epoch 160 (softmax gates: not
# by epoch 1000 on this seed). The saved model exports to every format, runs and becomes a page.
dlca_cli_test(gates.input_wise_trains sh -c "${g_train} --gates inputwise --seed 1 --starts 4 --epochs 161 \
  --threads 1 --quiet --save m.json --summary s.json && grep -q '\"gates\":\"inputwise\"' m.json \
  && grep -q '\"first_zero_epoch\": 160' s.json && ${g_dlca} export --model m.json --html p.html \
  --c k.c --verilog v.v --digitaljs d.json > /dev/null && test -s p.html && test -s k.c && test -s v.v \
  && test -s d.json && ${g_dlca} run --model m.json --steps 30 --size 16 --quiet --csv r.csv \
  && ${g_dlca} eval --model m.json && echo all checked")
set_tests_properties(gates.input_wise_trains PROPERTIES PASS_REGULAR_EXPRESSION
  "hard loss first reached 0 at epoch 160\n(.*\n)*all checked\n$")
# 3 epochs, saved, resumed to 6 on another thread count: the same parameters as 6 straight.
dlca_cli_test(gates.input_wise_resumes_exactly sh -c "${g_train} --gates inputwise --epochs 6 \
  --threads 1 --quiet > a_out.txt && grep parameters a_out.txt > a.txt && ${g_train} --gates inputwise --epochs 3 \
  --threads 1 --quiet --save h.json > /dev/null && ${g_train} --gates inputwise --epochs 6 \
  --threads 2 --quiet --resume h.json > b_out.txt && grep parameters b_out.txt > b.txt && test -s a.txt \
  && cmp a.txt b.txt \
  && echo same parameters")
set_tests_properties(gates.input_wise_resumes_exactly PROPERTIES PASS_REGULAR_EXPRESSION
  "^same parameters\n$")
# Logit noise has no input-wise counterpart: refused by name.
dlca_cli_test(gates.input_wise_no_noise ${expect} --status 2
  "^train_checkerboard: invalid configuration: --noise: acts on softmax logits: not available with inputwise gates"
  ${g_train} --gates inputwise --noise 0.1 --epochs 2)
# Sharpening does (the log-odds of each pattern's output over the temperature): it changes the
# training from its start epoch on, and a run saved before it resumes into it bit for bit.
dlca_cli_test(gates.input_wise_sharpening sh -c "${g_train} --gates inputwise --epochs 6 --threads 1 \
  --quiet > plain.txt && ${g_train} --gates inputwise --epochs 6 --threads 1 --sharpen-to 0.2 \
  --sharpen-start 3 --sharpen-end 6 --quiet > a_out.txt && ${g_train} --gates inputwise --epochs 3 \
  --threads 1 --sharpen-to 0.2 --sharpen-start 3 --sharpen-end 6 --quiet --save h.json > /dev/null \
  && ${g_train} --gates inputwise --epochs 6 --threads 2 --sharpen-to 0.2 --sharpen-start 3 \
  --sharpen-end 6 --quiet --resume h.json > b_out.txt && grep parameters plain.txt > p.txt \
  && grep parameters a_out.txt > a.txt && grep parameters b_out.txt > b.txt && test -s a.txt \
  && ! cmp -s p.txt a.txt && cmp a.txt b.txt && echo sharpened and resumed")
set_tests_properties(gates.input_wise_sharpening PROPERTIES PASS_REGULAR_EXPRESSION
  "^sharpened and resumed\n$")
dlca_cli_test(gates.unknown_kind ${expect} --status 2 "--gates: .*sigmoid" ${g_train} --gates sigmoid)
# robust takes input-wise gates for the checkerboard (and says so), not when --gates is given, and
# not for an image target (softmax gates with its noise and sharpening schedule).
dlca_cli_test(gates.robust_picks_input_wise sh -c "${g_train} --recipe robust --starts 2 --epochs 2 \
  --steps 2 --save r.json > r.txt && grep '^gates: input-wise' r.txt && grep -q '\"gates\":\"inputwise\"' r.json \
  && ${g_train} --recipe robust --gates softmax --starts 2 --epochs 2 --steps 2 --quiet --save s.json \
  > /dev/null && grep -q '\"gates\":\"softmax\"' s.json && ${g_dlca} train colored_g --recipe robust \
  --starts 1 --epochs 2 --quiet --save g.json > /dev/null && grep -q '\"gates\":\"softmax\"' g.json \
  && ${g_train} --recipe robust --starts 2 --epochs 3 --steps 2 --quiet --resume r.json > /dev/null \
  && echo all three")
set_tests_properties(gates.robust_picks_input_wise PROPERTIES PASS_REGULAR_EXPRESSION
  "^gates: input-wise \\(4 angles a gate\\)\nall three\n$")
