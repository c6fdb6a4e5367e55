// `questbench --help`'s text, in plain JavaScript: bin/questbench.mjs prints it (and `--version`)
// before it loads Vite or any TypeScript, and src/cli.ts prints the same text. The defaults it names
// are src/runOptions.ts' DEFAULT_OPTIONS and DEFAULT_SPLIT (tests/cli.test.ts checks they agree).

/** The usage text of every command, ending with the exit codes (README "Exit codes"). */
export const HELP = `Usage:
  questbench [--model M] [--split atomic|composite|paper|hard|all] [--tasks id,id] [--seed N]
             [--epochs K] [--concurrency C] [--out DIR] [--fresh]
             [--temperature T] [--max-tokens N] [--model-seed N] [--max-retries N] [--request-timeout S]
             [--provider-concurrency N] [--cache on|off|replay] [--cache-dir DIR] [--budget USD]
             [--early-stop N]
             [--price-in USD --price-out USD] [--name NAME]
             [--shard i/n] [--junit FILE] [--fork-url URL [--fork-block N|latest]] [--unsafe-sandbox]
             [--library ethers|viem] [--env-detail paper|full] [--naive] [--sample N]
             [--nl-level precise|moderate|vague] [--scoring paper|ours] [--protocol paper|ours|tools]
             [--tasks-dir DIR]…
      Run the benchmark (default: --model reference --split paper --seed 1 --concurrency 2
      --out .questbench/results/<model>). --split paper is the paper's 107 tasks (max 10,700); hard is
      the hard split, all both (the hard score printed apart, never added to the paper total); with
      --tasks and no --split, every split. A run into a folder adds to its results: results.json covers
      every instance there, and a finished one is not run again (--fresh runs the selected ones again,
      replacing only their results); a folder of another model or other settings is refused. Models: reference, scripted:DIR, a registry name or alias
      (claude-sonnet, gpt, gemini-pro, deepseek, … see src/models/registry.json), openrouter/<id>, <provider>:<model-id>,
      openai-compatible:<baseURL>#<model> (named by its host without the port, or --name). Provider
      models: temperature 0.7, 16384 max tokens, key from the provider's variable (ANTHROPIC_API_KEY,
      OPENAI_API_KEY, OPENROUTER_API_KEY, …), responses cached in --cache-dir (else
      QUESTBENCH_CACHE_DIR, else .questbench/cache); --budget stops starting new instances once the
      projected spend would pass USD, at the registry's price or --price-in/--price-out (USD per
      million tokens). --early-stop N ends the run after N schema failures in a row, as the paper's
      §5.3 did (the rest not started). --shard i/n runs the i-th of n disjoint parts of the
      instance list (merge them with questbench report); --junit also writes a JUnit XML report.
      --fork-url runs on a fork of BNB Smart Chain at --fork-block (default latest, resolved once and
      recorded): the agent's assets are provisioned by storage writes, the auxiliary contracts and the
      hard world deployed and built, and a task whose world cannot be provisioned is skipped, named
      before the run (README "Fork mode").
      The paper implementation's modes (README "Comparing with the paper"; recorded in the manifest):
      --library offers one library with its conventions, --env-detail paper lists addresses without
      descriptions (own contracts keep theirs), --naive appends the task's hint, --sample N runs a
      seeded category-proportional sample of N tasks, --nl-level words every request precisely (the
      default), moderately or vaguely, with the same values;
      --scoring paper also scores each paper task the paper's way, reported beside ours, never mixed in;
      --protocol paper runs the paper's composites under the paper implementation's protocol (its plan's
      subtasks drive the rounds, 3 tries each, query/error/submit control JSON, decay 0 at no round);
      --protocol tools runs every task as a tool-using agent (native function calling: reads, simulate,
      send_transaction, sign_typed_data, answer/refuse/finish; docs/PROTOCOLS.md), scored by the same checks.
      --unsafe-sandbox runs an untrusted model (provider or scripted:) on a set-up missing a sandbox
      barrier, which is otherwise refused; results.json and the leaderboard mark such a run.
  questbench report <results.json or dirs…> --out DIR [--force]
      Merge runs of several models and shards into DIR/leaderboard.md (the paper's Tables 1, 2, 8, 9,
      10), DIR/leaderboard.tex (booktabs), DIR/report.html, DIR/figures/*.svg and *.png (300 dpi) and one merged
      results.json per model (DIR/runs/<model>/). Refuses runs whose manifests disagree (world, fork
      block, task versions, modes) or models run on different task sets unless --force.
  questbench validate DIR [--seeds 1,2] [--concurrency C]
      Check a task pack (README "Write your own task"): each task.json (schema, placeholders, check
      arguments; errors as file:line:column), its id against the package's, then on real chains that
      its gold answer scores 100 on each seed and each case scores as its front matter says. Exit 1
      on any problem. Run its tasks with --tasks-dir DIR (repeatable; QUESTBENCH_TASKS_DIR).
  questbench list [--split S] [--tasks id,id] [--tasks-dir DIR]…
      Print the tasks a run with the same flags would select, one a line: id, split, set (paper, hard, or
      custom for a task pack's), category, K_opt (a composite's optimal rounds) and difficulty.
  questbench view [folders…] [--port P] [--export DIR]
      Browse results folders (default .questbench/results) in a browser, live while a run writes
      (docs/VIEWER.md); --export writes the same as a static folder to share.
  questbench world [--port P]
      Serve the local BSC-like world on 127.0.0.1 and print its URL and address book.
  questbench --help | --version
Exit codes: 0 the run finished (whatever the scores; reference: all 100), 1 a run or harness
failure (provider or infrastructure error, run stopped, missing key, retired model), 2 a usage error
(a bad flag, an --out that cannot be written or holds another run's results).`;
