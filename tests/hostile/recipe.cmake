# Training options beyond the paper's recipe: --stop-when-solved, --starts, --recipe.
# The paper's checkerboard (seed 23) first reaches hard loss 0 at epoch 244 and stays there: with
# --stop-when-solved 10 it stops at epoch 253, the tenth with hard loss 0, and keeps the parameters
# that epoch measured (253 updates), and says so.
dlca_cli_test(recipe.stop_when_solved sh -c "${train} --recipe paper --epochs 500 --stop-when-solved 10 --quiet \
  --summary s.json && grep -q '\"stopped_when_solved\": true' s.json && grep -q '\"epochs\": 253,' s.json \
  && echo summary checked")
set_tests_properties(recipe.stop_when_solved PROPERTIES PASS_REGULAR_EXPRESSION
  "checkerboard_sync on cpu [^\n]*: 253 epochs in[^\n]*\nfinal soft loss [^\n]*, hard loss 0\nstopped: hard loss 0 for 10 consecutive epochs \\(--stop-when-solved\\); the parameters that scored it are kept\nhard loss first reached 0 at epoch 244\n(.*\n)*summary checked\n$")
# A negative window is refused by name, on the command line and in an experiment file.
dlca_cli_test(recipe.stop_when_solved_negative ${expect} "^train_checkerboard: --stop-when-solved: .*-1"
  ${train} --stop-when-solved -1)
dlca_cli_test(recipe.stop_when_solved_file sh -c "sed 's/\"seed\": 23/\"seed\": 23, \"stop_when_solved\": -2/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && grep -q stop_when_solved x.json \
  && ${expect} 'x.json: stop_when_solved: must be a non-negative integer, got -2' $<TARGET_FILE:dlca_train_program> --config x.json")
# No recipe given: robust, the default, says so in the help, the printed summary and its JSON.
dlca_cli_test(recipe.default_is_robust sh -c "${train} --help > help.txt \
  && grep -q -- '--recipe TEXT:{paper,robust}=robust' help.txt \
  && ${train} --epochs 2 --steps 2 --quiet --summary s.json && grep -q '\"recipe\": \"robust\",' s.json \
  && grep -q '\"starts\": 4,' s.json && echo summary checked")
set_tests_properties(recipe.default_is_robust PROPERTIES PASS_REGULAR_EXPRESSION
  "^checkerboard_sync on cpu [^\n]*, recipe robust: 2 epochs in[^\n]*\n(.*\n)*summary checked\n$")
# --recipe robust: 4 starts and a solved stop unless --starts / --stop-when-solved say otherwise, in
# either order; the summary names the start it kept.
dlca_cli_test(recipe.robust sh -c "${train} --recipe robust --epochs 3 --quiet --summary s.json \
  && grep -q '\"starts\": 4,' s.json && grep -q '\"start\": ' s.json && echo summary checked")
set_tests_properties(recipe.robust PROPERTIES PASS_REGULAR_EXPRESSION
  "\nstart [0-3] of 4 \\(seed [0-9]+\\) kept: none solved; lowest hard loss\n(.*\n)*summary checked\n$")
dlca_cli_test(recipe.robust_starts_given sh -c "${train} --starts 2 --recipe robust --epochs 2 --quiet \
  --summary a.json && ${train} --recipe robust --starts 2 --epochs 2 --quiet --summary b.json \
  && grep -q '\"starts\": 2,' a.json && grep -q '\"starts\": 2,' b.json && echo both-2")
set_tests_properties(recipe.robust_starts_given PROPERTIES PASS_REGULAR_EXPRESSION "both-2")
dlca_cli_test(recipe.unknown ${expect} "^train_checkerboard: --recipe: fast not in \\{paper,robust\\}"
  ${train} --recipe fast)
dlca_cli_test(recipe.starts_zero ${expect} "^train_checkerboard: --starts: .*0" ${train} --starts 0)
dlca_cli_test(recipe.starts_too_many ${expect} "^train_checkerboard: --starts: .*65" ${train} --starts 65)
dlca_cli_test(recipe.file_unknown_recipe sh -c "sed 's/\"seed\": 23/\"seed\": 23, \"recipe\": \"fast\"/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && grep -q fast x.json \
  && ${expect} 'x.json: recipe: must be \"paper\" or \"robust\", got \"fast\"' $<TARGET_FILE:dlca_train_program> --config x.json")
dlca_cli_test(recipe.file_zero_starts sh -c "sed 's/\"seed\": 23/\"seed\": 23, \"starts\": 0/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && grep -q starts x.json \
  && ${expect} 'x.json: starts: must be' $<TARGET_FILE:dlca_train_program> --config x.json")
# A multi-start checkpoint resumed without its recipe: refused, naming what differs.
dlca_cli_test(recipe.resume_needs_recipe sh -c "${train} --recipe robust --epochs 2 --quiet --save m.json \
  && ${expect} 'the checkpoint.s recipe is \"robust\" but this run.s is \"paper\". the checkpoint.s gates is \"inputwise\" but this run.s is \"softmax\". the checkpoint.s starts is 4 but this run.s is 1. the checkpoint.s halving is true but this run.s is false \\(give the options' \
  ${train} --recipe paper --resume m.json --epochs 4")
# An unsolved multi-start checkpoint resumed without --starts is refused, even when the chosen
# candidate has the run's own seed (it continued that candidate alone, dropping the others).
dlca_cli_test(recipe.resume_needs_starts sh -c "${train} --recipe paper --starts 3 --epochs 3 --steps 2 --quiet --save m.json \
  && ${expect} --status 2 'the checkpoint.s starts is 3 but this run.s is 1' \
  ${train} --recipe paper --resume m.json --epochs 4 --steps 2")
# A run stopped when solved: resuming its checkpoint only for its outputs reports the epoch that
# solved it (the checkpoint keeps that measurement).
dlca_cli_test(recipe.stopped_checkpoint_remembers_its_zero sh -c "${train} --recipe paper --epochs 300 --stop-when-solved 1 \
  --quiet --save m.json && ${train} --recipe paper --epochs 244 --resume m.json --summary s.json \
  && grep -q '\"first_zero_epoch\": 244' s.json && echo summary checked")
set_tests_properties(recipe.stopped_checkpoint_remembers_its_zero PROPERTIES PASS_REGULAR_EXPRESSION
  "final soft loss [^\n]*, hard loss 0\nhard loss first reached 0 at epoch 244\n(.*\n)*summary checked\n$")
# robust repairs an unsolved circuit unless --no-repair says otherwise (in either order).
dlca_cli_test(recipe.robust_repairs sh -c "${train} --recipe robust --epochs 1 --steps 1 --quiet \
  --save a.json && grep -q '\"repair\":true' a.json && ${train} --no-repair --recipe robust \
  --epochs 1 --steps 1 --quiet --save b.json && grep -q '\"repair\":false' b.json && echo both")
set_tests_properties(recipe.robust_repairs PROPERTIES PASS_REGULAR_EXPRESSION "\nboth\n$")
# Game of Life trains on 20 of the 512 neighbourhoods an epoch: a batch with hard loss 0 does not
# stop the run unless the circuit gets all 512 right (the first such batches come from wrong rules).
dlca_cli_test(recipe.robust_game_of_life sh -c "$<TARGET_FILE:dlca_train_program> --config game_of_life \
  --recipe robust --seed 3 --quiet --summary s.json && grep -q '\"stopped_when_solved\": true' s.json \
  && echo summary checked")
set_tests_properties(recipe.robust_game_of_life PROPERTIES PASS_REGULAR_EXPRESSION
  "\nneighbourhoods_correct 512\n(.*\n)*summary checked\n$")
# Forward-only sharpening: the summary names the schedule, the model file stores it, and a resume
# under another schedule that would have changed epochs already trained is refused by name.
dlca_cli_test(recipe.sharpen sh -c "${train} --epochs 12 --sharpen-to 0.1 --sharpen-start 4 \
  --sharpen-end 10 --quiet --save m.json && grep -q '\"sharpen_to\":0.1' m.json \
  && ${expect} 'the checkpoint.s sharpen_start is 4 but this run.s is 2' ${train} --resume m.json \
  --epochs 14 --sharpen-to 0.1 --sharpen-start 2 --sharpen-end 10 && echo refused")
set_tests_properties(recipe.sharpen PROPERTIES PASS_REGULAR_EXPRESSION
  "\nforward-only sharpening: temperature 1 to 0.1 over epochs 4-10\n.*refused")
dlca_cli_test(recipe.sharpen_to_above_one ${expect}
  "^train_checkerboard: --sharpen-to: must be a number above 0 and at most 1, got 1.5"
  ${train} --sharpen-to 1.5)
dlca_cli_test(recipe.sharpen_to_file sh -c "sed 's/\"seed\": 23/\"seed\": 23, \"sharpen_to\": 0/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && grep -q sharpen_to x.json \
  && ${expect} 'x.json: sharpen_to: must be in .0, 1. .1: no sharpening., got 0' $<TARGET_FILE:dlca_train_program> --config x.json")
# AdamW's epsilon: refused outside [1.2e-38, 1] on the command line and in a file (a value a float
# would flush toward 0 is named as such, not shown as 0); a model stores it and
# a resume with another is refused by name; the summary says when it is not the notebook's.
dlca_cli_test(recipe.adam_eps_zero ${expect}
  "^train_checkerboard: --adam-eps: must be a number above 0 and at most 1, got 0"
  ${train} --adam-eps 0)
dlca_cli_test(recipe.adam_eps_tiny ${expect}
  "^train_checkerboard: --adam-eps: is too close to 0 .the smallest above 0 is 1.17549e-38., got 1e-50"
  ${train} --adam-eps 1e-50)
dlca_cli_test(recipe.adam_eps_tiny_file sh -c "sed 's/\"seed\": 23/\"seed\": 23, \"adam_eps\": 1e-50/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && grep -q adam_eps x.json \
  && ${expect} 'x.json: adam_eps: is too close to 0 for a float .the smallest above 0 is 1.17549e-38., got 1e-50' $<TARGET_FILE:dlca_train_program> --config x.json")
dlca_cli_test(recipe.adam_eps_file sh -c "sed 's/\"seed\": 23/\"seed\": 23, \"adam_eps\": 2/' \
  ${PROJECT_SOURCE_DIR}/targets/checkerboard_sync.json > x.json && grep -q adam_eps x.json \
  && ${expect} 'x.json: adam_eps: must be in .1.17549e-38, 1., got 2' $<TARGET_FILE:dlca_train_program> --config x.json")
dlca_cli_test(recipe.adam_eps_resume sh -c "${train} --epochs 3 --adam-eps 1e-12 --save m.json \
  && grep -q '\"adam_eps\":9.99' m.json \
  && ${expect} --status 2 'the checkpoint.s adam_eps is 1e-12 but this run.s is 1e-08' ${train} --resume m.json \
  --epochs 5 && echo refused")
set_tests_properties(recipe.adam_eps_resume PROPERTIES PASS_REGULAR_EXPRESSION
  "\nAdamW epsilon 1e-12\n.*refused")
dlca_cli_test(recipe.noise_negative ${expect}
  "^train_checkerboard: --noise: must be a number from 0 to 100, got -1" ${train} --noise -1)
dlca_cli_test(recipe.sharpen_end_before_start ${expect}
  "^train_checkerboard: invalid configuration: --sharpen-end: must not be before --sharpen-start"
  ${train} --sharpen-to 0.5 --sharpen-start 9 --sharpen-end 3)
# --repair: the paper's checkerboard (seed 23) after 236 epochs fails (44 wrong bits on its batch, 915 on
# the 16 batches the repair scores); one gate change makes it work on all of them (training alone
# first reaches 0 at epoch 244). The saved model scores 0.
dlca_cli_test(recipe.repair sh -c "${train} --recipe paper --epochs 236 --repair --quiet --summary s.json --save m.json \
  && grep -q '\"applied\": true' s.json && grep -q '\"first_zero_epoch\": 236' s.json \
  && ${train} --recipe paper --resume m.json --epochs 237 --repair --print-every 1")
set_tests_properties(recipe.repair PROPERTIES PASS_REGULAR_EXPRESSION
  "final soft loss [^\n]*, hard loss 0\nrepair: hard loss 915 -> 0 over 16 batches, 1 gate change \\([0-9]+ hard rollouts, [^)]*\\): applied\nhard loss first reached 0 at epoch 236\n.*epoch +236 \\(237/237\\) +soft +[0-9.]+ +hard +0 ")
# With more rounds, the repair is tried before them: the same checkerboard at 236 epochs, with a
# sharpening that begins only in the rounds (none before epoch 236, so it trains as above), is
# repaired at epoch 236 and trains no round; the progress shows the last epoch it trained.
dlca_cli_test(recipe.repair_before_rounds ${train} --recipe paper --epochs 236 --repair
  --stop-when-solved 1 --sharpen-to 0.5 --sharpen-start 236 --sharpen-end 240 --repeat-schedule 5
  --rounds 2 --print-every 100)
# (FAIL_REGULAR_EXPRESSION replaces dlca_cli_test's, so it keeps the exit-status marker.)
set_tests_properties(recipe.repair_before_rounds PROPERTIES FAIL_REGULAR_EXPRESSION
  "not solved:|DLCA_TEST_EXIT_STATUS [0-9]+")
set_tests_properties(recipe.repair_before_rounds PROPERTIES PASS_REGULAR_EXPRESSION
  "epoch +235 \\(236/246\\) [^\n]*\n[^\n]*: 236 epochs in [^\n]*\n(.*\n)*rounds: up to 2 more of 5 epochs [^\n]*; none needed\n(.*\n)*repair at epoch 236: hard loss 915 -> 0 over 16 batches, 1 gate change \\([0-9]+ hard rollouts, [^)]*\\): applied\nhard loss first reached 0 at epoch 236\n")
# A robust image run resumed to more epochs keeps the schedule it was started with (it was refused:
# the schedule derived from the new --epochs differed from the checkpoint's).
dlca_cli_test(recipe.robust_image_resumes_longer sh -c "$<TARGET_FILE:dlca_program> train colored_g \
  --recipe robust --starts 1 --epochs 4 --rounds 0 --quiet --save g.json \
  && $<TARGET_FILE:dlca_program> train colored_g --recipe robust --starts 1 --epochs 5 --rounds 0 \
  --resume g.json --quiet")
set_tests_properties(recipe.robust_image_resumes_longer PROPERTIES PASS_REGULAR_EXPRESSION
  "5 epochs \\(resumed at epoch 4\\)[^\n]*\n(.*\n)*logit noise: Gumbel of scale 0.1 from epoch 2 to 3")
# After its rounds (4 epochs, then 2 rounds of 2), a run continues with more rounds; another
# --epochs would move the rounds it trained, and the error says what to give instead.
dlca_cli_test(recipe.robust_image_more_rounds sh -c "$<TARGET_FILE:dlca_program> train colored_g \
  --starts 1 --epochs 4 --no-repair --quiet --save g.json \
  && ! $<TARGET_FILE:dlca_program> train colored_g --starts 1 --epochs 5 --resume g.json --quiet \
  && $<TARGET_FILE:dlca_program> train colored_g --starts 1 --epochs 4 --rounds 3 --no-repair \
  --resume g.json --quiet")
set_tests_properties(recipe.robust_image_more_rounds PROPERTIES PASS_REGULAR_EXPRESSION
  "--resume g.json: its noise and sharpening repeat every 2 epochs [^\n]*; give --epochs 4, with --rounds above 2 to train on [^\n]*\n(.*\n)*10 epochs \\(resumed at epoch 8\\)[^\n]*\n(.*\n)*rounds: up to 3 more of 2 epochs [^\n]*; 3 of them trained\n")
# A schedule epoch without its lever would change nothing: refused, as other options without effect.
dlca_cli_test(recipe.noise_start_without_noise ${expect} --status 2
  "^train_checkerboard: --noise-start: has no effect without --noise above 0" ${train} --noise-start 5 --epochs 2)
dlca_cli_test(recipe.sharpen_end_without_sharpen_to ${expect} --status 2
  "^train_checkerboard: --sharpen-end: has no effect without --sharpen-to below 1" ${train} --sharpen-end 5 --epochs 2)
# Grow and stay: --loss-steps N compares the last N states with the target; stored in the model
# file; refused beyond --steps and on the Vulkan backend (its loss shaders compare the last state).
dlca_cli_test(recipe.loss_steps sh -c "${train} --recipe paper --epochs 2 --steps 4 --loss-steps 3 \
  --quiet --save m.json && grep -q '\"loss_steps\":3' m.json && echo stored")
set_tests_properties(recipe.loss_steps PROPERTIES PASS_REGULAR_EXPRESSION "\nstored\n$")
dlca_cli_test(recipe.loss_steps_beyond_steps ${expect}
  "^train_checkerboard: invalid configuration: --loss-steps: must be from 1 to --steps \\(4\\), got 5"
  ${train} --steps 4 --loss-steps 5)
# Progressive hardening: the summary names the stages and how many gates they fixed, a checkpoint
# stores the fixed gates, and a run interrupted between stages resumes to the parameters of the
# straight run; a stage epoch without --harden, or too many stages, is refused by name.
set(harden_run $<TARGET_FILE:dlca_train_program> --config ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json
  --harden 2 --harden-start 3 --harden-end 9 --quiet)
string(REPLACE ";" " " harden_run "${harden_run}")
dlca_cli_test(recipe.harden sh -c "${harden_run} --epochs 10 --save straight.json > straight.txt \
  && grep -q '\"harden\":2' straight.json && grep -q '\"hardened\":.[0-9]' straight.json \
  && ${harden_run} --epochs 5 --save half.json > /dev/null && ${harden_run} --epochs 10 --resume half.json \
  > resumed.txt && grep parameters straight.txt > a && grep parameters resumed.txt > b && cmp a b \
  && cat straight.txt && echo same parameters")
set_tests_properties(recipe.harden PROPERTIES PASS_REGULAR_EXPRESSION
  "\nprogressive hardening: stages at epochs 3, 6; [0-9]+ of [0-9]+ gates fixed at the end\n(.*\n)*same parameters\n$")
# A schedule given only when resuming, for epochs after the checkpoint's: the straight run's result.
# With harden_end 0 the stages follow --epochs: a resume with other --epochs that would move a stage
# the checkpoint already took is refused, naming the fix.
set(tiny_train $<TARGET_FILE:dlca_train_program> --config ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json --quiet)
string(REPLACE ";" " " tiny_train "${tiny_train}")
dlca_cli_test(recipe.harden_added_on_resume sh -c "${tiny_train} --epochs 12 --harden 2 --harden-start 6 > straight.txt \
  && ${tiny_train} --epochs 4 --save first.json > /dev/null \
  && ${tiny_train} --epochs 12 --harden 2 --harden-start 6 --resume first.json > resumed.txt \
  && grep parameters straight.txt > a && grep parameters resumed.txt > b && cmp a b && cat resumed.txt \
  && ${tiny_train} --epochs 10 --harden 2 --harden-start 2 --save ten.json > /dev/null \
  && ${expect} 'give --harden-end 10 to keep them' ${tiny_train} --epochs 30 --harden 2 --harden-start 2 \
  --resume ten.json && echo refused")
set_tests_properties(recipe.harden_added_on_resume PROPERTIES PASS_REGULAR_EXPRESSION
  "\nprogressive hardening: stages at epochs 6, 9; [0-9]+ of [0-9]+ gates fixed at the end\n(.*\n)*refused\n$")
# --grad-norm: stored in the model file, named in the summary, a different result.
dlca_cli_test(recipe.grad_norm sh -c "${tiny_train} --epochs 6 --grad-norm --save m.json > on.txt \
  && ${tiny_train} --epochs 6 > off.txt && grep -q '\"grad_norm\":true' m.json \
  && grep parameters on.txt > a && grep parameters off.txt > b && ! cmp -s a b && cat on.txt && echo differs")
set_tests_properties(recipe.grad_norm PROPERTIES PASS_REGULAR_EXPRESSION
  "\ngradient normalised per layer before AdamW \\(--grad-norm\\)\n(.*\n)*differs\n$")
# --lr-decay-to: named in the summary, a different result; a resume (the decay given only then, for
# epochs after the checkpoint's) continues bit for bit; with --lr-decay-end 0 the decay follows
# --epochs, so a resume with other --epochs that would change the rate before the checkpoint's epoch
# is refused, naming the fix.
dlca_cli_test(recipe.lr_decay sh -c "${tiny_train} --epochs 12 --lr-decay-to 0.005 --lr-decay-start 6 > straight.txt \
  && ${tiny_train} --epochs 12 > off.txt && grep parameters straight.txt > a && grep parameters off.txt > b \
  && ! cmp -s a b && ${tiny_train} --epochs 4 --save first.json > /dev/null \
  && ${tiny_train} --epochs 12 --lr-decay-to 0.005 --lr-decay-start 6 --resume first.json > resumed.txt \
  && grep parameters resumed.txt > c && cmp a c && cat resumed.txt \
  && ${tiny_train} --epochs 10 --lr-decay-to 0.005 --save ten.json > /dev/null \
  && grep -q '\"lr_decay_to\":0.00499999' ten.json \
  && ${expect} 'give --lr-decay-end 10 to keep it' ${tiny_train} --epochs 30 --lr-decay-to 0.005 \
  --resume ten.json && echo refused")
set_tests_properties(recipe.lr_decay PROPERTIES PASS_REGULAR_EXPRESSION
  "\nlearning rate: 0.05, falling along a half cosine from epoch 6 to 0.005 at epoch 12 \\(--lr-decay-to\\)\n(.*\n)*refused\n$")
dlca_cli_test(recipe.lr_decay_above_lr ${expect} --status 2
  "--lr-decay-to: must be 0 \\(off\\) or above 0 and at most lr \\(0.05\\), got 0.5"
  $<TARGET_FILE:dlca_train_program> --config ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json
  --lr-decay-to 0.5)
dlca_cli_test(recipe.harden_start_without_harden ${expect} --status 2
  "--harden-start: has no effect without harden stages above 0" ${train} --harden-start 5 --epochs 2)
dlca_cli_test(recipe.harden_too_many ${expect} --status 2
  "^train_checkerboard: --harden: must be an integer from 0 to 16, got 17" ${train} --harden 17)
# --starts auto: successive halving adds starts until the budget is spent (the tiny checkerboard
# does not solve in 80 epochs; rungs at epochs 20 and 40), says so in the printed summary and its
# JSON, and tries the same starts and keeps the same one at 1 and 2 threads.
set(auto_run $<TARGET_FILE:dlca_train_program> --config ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json
  --starts auto --epochs 80 --quiet)
string(REPLACE ";" " " auto_run "${auto_run}")
dlca_cli_test(recipe.starts_auto sh -c "${auto_run} --threads 1 --summary s.json > one.txt \
  && ${auto_run} --threads 2 > two.txt && grep -E '^start' one.txt > a.txt && grep -E '^start' two.txt > b.txt \
  && cmp a.txt b.txt && grep -q '\"halving\": true' s.json && grep -q '\"budget_spent\": true' s.json \
  && cat one.txt && echo summary checked")
set_tests_properties(recipe.starts_auto PROPERTIES PASS_REGULAR_EXPRESSION
  "\nstarts: [5-9] tried, 4 at a time, [1-9] stopped by halving; 32[0-3] of 320 candidate epochs used \\(the budget is spent\\)\nstart [0-9] of [5-9] \\(seed [0-9]+\\) kept: none solved; lowest hard loss\n(.*\n)*summary checked\n$")
# --budget sets it; an experiment file says "starts": "auto".
dlca_cli_test(recipe.starts_auto_budget_and_file sh -c "${auto_run} --budget 100 > b.txt \
  && grep -q '^starts: .* 10[0-3] of 100 candidate epochs used' b.txt \
  && sed 's/\"seed\": 1/\"seed\": 1, \"starts\": \"auto\"/' ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json > x.json \
  && $<TARGET_FILE:dlca_train_program> --config x.json --epochs 8 --quiet --summary s.json \
  && grep -q '\"halving\": true' s.json && echo both checked")
set_tests_properties(recipe.starts_auto_budget_and_file PROPERTIES PASS_REGULAR_EXPRESSION "both checked")
dlca_cli_test(recipe.starts_auto_bad ${expect} "^train_checkerboard: --starts: must be auto or an integer from 1 to 64, got 'autos'"
  ${train} --starts autos)
dlca_cli_test(recipe.budget_needs_auto ${expect} --status 2 "--budget: has no effect without halving \\(--starts auto\\)"
  ${train} --starts 2 --budget 10)
# A run whose budget ran out, resumed with a larger one, ends as the run with that budget from the
# start: the same starts tried, the same one kept, the same parameters.
dlca_cli_test(recipe.starts_auto_resume sh -c "${auto_run} --budget 320 > straight.txt \
  && ${auto_run} --budget 160 --save m.json > cut.txt && grep -q '160 of 160 candidate epochs' cut.txt \
  && grep -q '\"halving\":{' m.json && ${auto_run} --budget 320 --resume m.json > resumed.txt \
  && grep -E '^(start|parameters)' straight.txt > a.txt && grep -E '^(start|parameters)' resumed.txt > b.txt \
  && test $(wc -l < a.txt) -eq 3 && cmp a.txt b.txt && echo resumed checked")
set_tests_properties(recipe.starts_auto_resume PROPERTIES PASS_REGULAR_EXPRESSION "resumed checked")
# Its rungs follow from --epochs: a resume with other --epochs is refused (the scores recorded at
# epoch 20 would be read as epoch 25's).
set(auto_run_100 $<TARGET_FILE:dlca_train_program> --config ${CMAKE_CURRENT_SOURCE_DIR}/hostile/data/tiny_checkerboard.json
  --starts auto --epochs 100 --quiet)
string(REPLACE ";" " " auto_run_100 "${auto_run_100}")
dlca_cli_test(recipe.starts_auto_resume_other_epochs sh -c "${auto_run} --budget 160 --save m.json > /dev/null \
  && ${expect} --status 2 'm.json: a --starts auto run halves at a quarter and half of --epochs' ${auto_run_100} --resume m.json")
