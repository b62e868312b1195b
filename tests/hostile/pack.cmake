# dlca_run packs its start, targets and pictures a row at a time into the grid's bit planes: an
# 8192^2 run of a 2-channel circuit with a checkerboard target fits in 200 MB of address space and
# passes --max-memory 64M (the byte-per-cell start needed ~200 MB more and fails both), and its
# error CSV is the one the byte-per-cell implementation computed. A PNG start with fewer planes than the
# circuit has channels gives the same state on Vulkan as on the CPU (the other channels 0).
set(v2_model ${PROJECT_SOURCE_DIR}/tests/data/model_v2_checkerboard.json)
set(pack_csv "^step,error,alive\n0,33550045,33558009\n1,33562731,33551033\n2,33557194,38592794\n$")
set(pack_big "${run} --model ${v2_model} --size 8192 --steps 2 --threads 2 --quiet \
  --target checkerboard --max-memory 64M --csv big.csv")
if(DLCA_SANITIZE)
  # AddressSanitizer reserves terabytes of address space: no ulimit -v; the CSV is still checked.
  dlca_cli_test(hostile.pack_big_grid sh -c "${pack_big} && cat big.csv")
else()
  dlca_cli_test(hostile.pack_big_grid sh -c "ulimit -v 200000 && ${pack_big} && cat big.csv")
endif()
set_tests_properties(hostile.pack_big_grid PROPERTIES PASS_REGULAR_EXPRESSION "${pack_csv}")
if(DLCA_HAVE_VULKAN)
  foreach(backend cpu vulkan)
    set(pack_run_${backend} "${run} --model ${v2_model} --width 45 --height 19 --init a.png \
      --steps 3 --async --quiet --backend ${backend} --png ${backend}.png --csv ${backend}.csv \
      --target a.png")
  endforeach()
  dlca_cli_test(hostile.pack_png_start_vulkan ${vulkan} sh -c "${run} --model ${v2_model} --size 37 \
    --steps 3 --quiet --png a.png && ${pack_run_cpu} && ${pack_run_vulkan} && cmp cpu.png vulkan.png \
    && cmp cpu.csv vulkan.csv && echo same on both")
  set_tests_properties(hostile.pack_png_start_vulkan PROPERTIES PASS_REGULAR_EXPRESSION "^same on both\n$")
endif()
