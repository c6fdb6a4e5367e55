/**
 * What names a run's model wherever results are kept: the default output folder, the resume key,
 * results.json `manifest.model` and `instances[].model`, and the response cache's provider part
 * (docs/RUNNING.md "Model identity").
 *
 * `--name` wins. An `openai-compatible:<baseURL>#<model>` endpoint is named by its host without the
 * port and its model (`openai-compatible:127.0.0.1#qwen3-coder:30b`): a local server restarted on
 * another port keeps its folder, its finished instances and its cache. Every other model is named
 * as given on the command line.
 * @example
 * modelIdentity("openai-compatible:http://127.0.0.1:8000/v1#Qwen/Qwen3-Coder"); // "openai-compatible:127.0.0.1#Qwen/Qwen3-Coder"
 * modelIdentity("claude-sonnet"); // "claude-sonnet"
 * modelIdentity("openai-compatible:http://127.0.0.1:8000/v1#m", "my-vllm"); // "my-vllm"
 */
export function modelIdentity(model: string, name?: string | undefined): string {
  if (name) return name;
  const host = endpointHost(model);
  return host === undefined ? model : `openai-compatible:${host}#${model.slice(model.lastIndexOf("#") + 1)}`;
}

/** The host (no port, no path) of an `openai-compatible:<baseURL>#<model>` name; undefined for any other name. */
export function endpointHost(model: string): string | undefined {
  if (!model.startsWith("openai-compatible:")) return undefined;
  const spec = model.slice("openai-compatible:".length);
  const hash = spec.lastIndexOf("#");
  try {
    return new URL(spec.slice(0, hash)).hostname;
  } catch {
    return undefined;
  }
}
