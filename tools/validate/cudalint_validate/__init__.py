"""cuda-lint-validate: prove that cuda-lint's fixes are correct and useful
(usage: cli.py's docstring, or cuda-lint-validate --help; docs/validation.md).

  cli.py             the command line: arguments, modes, the summary
  cases.py           what to validate: a suite's cases, files with their
                     compile commands
  file_mode.py       a file's fixes: all together, then one at a time
  case.py            one case: compile, evidence, GPU run, verdict
  lint.py            cuda-lint's findings and their fixes applied
  compile_db.py      compile databases and the flags nvcc gets from them
  nvcc.py            nvcc's compiles, the PTX, cuobjdump's and nvdisasm's SASS
  evidence.py        the instruction-level claim of each check, whole file
  line_evidence.py   the same claims per finding, from the line tables
  source.py          source lines: statements, finding lines, line maps
  gpu.py             run, compare outputs, compute-sanitizer, timing
  program.py         program mode: prepare a bundle, sanitizer, apply
  program_run.py     program mode: build, run, compare, bisect
  program_output.py  program mode: a program's printed results and times
  report.py          the table, Markdown, the environment
  common.py          running commands, finding nvcc, cuobjdump, a GPU
"""
