import { describe, expect, test } from "vitest";
import { INVALID_PARAMS, METHOD_NOT_FOUND } from "../src/sandbox/jsonRpc.ts";
import { allowedRpcMethods, rpcPolicy } from "../src/sandbox/rpcPolicy.ts";

// The RPC guard's policy as a pure function (docs/SECURITY.md, "RPC guard"): tests/guard.test.ts
// proves the server applies it to real requests; this file proves the decisions themselves, one
// class at a time, without a server or a chain.

const agent = "0x1111111111111111111111111111111111111111";
const call = { to: "0x2222222222222222222222222222222222222222", data: "0x70a08231" };

describe("rpcPolicy", () => {
  test("every served read is forwarded as it is", () => {
    for (const method of allowedRpcMethods) {
      const params = method.startsWith("debug_trace") ? ["0x01", { tracer: "callTracer" }] : [];
      const options = method === "debug_traceCall" ? [call, "latest", { tracer: "callTracer" }] : params;
      expect(rpcPolicy(method, options), method).toEqual({ decision: "forward" });
    }
  });

  test("eth_accounts is answered by the guard: [] normally, [agent] on a typed-data task", () => {
    expect(rpcPolicy("eth_accounts", [])).toEqual({ decision: "answer", result: [] });
    expect(rpcPolicy("eth_accounts", [], { typedDataAgent: agent })).toEqual({
      decision: "answer",
      result: [agent],
    });
  });

  test("eth_signTypedData_v4 goes to the signer only on a typed-data task; elsewhere it is a violation", () => {
    expect(rpcPolicy("eth_signTypedData_v4", [agent, "{}"], { typedDataAgent: agent })).toEqual({
      decision: "sign",
    });
    expect(rpcPolicy("eth_signTypedData_v4", [agent, "{}"])).toMatchObject({
      decision: "refuse",
      code: METHOD_NOT_FOUND,
      violation: "forbidden_rpc_method",
    });
  });

  test("methods that send, sign or steer the node are refused as violations, on every task", () => {
    for (const method of [
      "eth_sendTransaction",
      "eth_sendRawTransaction",
      "eth_sign",
      "personal_sign",
      "anvil_setBalance",
      "anvil_impersonateAccount",
      "evm_revert",
      "evm_mine",
      "hardhat_setCode",
      "miner_start",
      "debug_setHead",
    ])
      for (const options of [{}, { typedDataAgent: agent }])
        expect(rpcPolicy(method, [], options), method).toMatchObject({
          decision: "refuse",
          code: METHOD_NOT_FOUND,
          violation: "forbidden_rpc_method",
        });
  });

  test("state and block overrides are violations on every method that takes them", () => {
    const override = { [call.to]: { balance: "0x1" } };
    const cases: [string, unknown[]][] = [
      ["eth_call", [call, "latest", override]],
      ["eth_estimateGas", [call, "latest", override]],
      ["eth_createAccessList", [call, "latest", override]],
      ["debug_traceCall", [call, "latest", { tracer: "callTracer", stateOverrides: override }]],
      ["debug_traceCall", [call, "latest", { tracer: "callTracer", blockOverrides: { number: "0x1" } }]],
      ["eth_simulateV1", [{ blockStateCalls: [{ calls: [call], stateOverrides: override }] }, "latest"]],
    ];
    for (const [method, params] of cases)
      expect(rpcPolicy(method, params), method).toMatchObject({
        decision: "refuse",
        code: INVALID_PARAMS,
        violation: "forbidden_rpc_params",
      });
    // The same calls without overrides are served.
    expect(rpcPolicy("eth_call", [call, "latest"])).toEqual({ decision: "forward" });
    expect(rpcPolicy("eth_simulateV1", [{ blockStateCalls: [{ calls: [call] }] }, "latest"])).toEqual({
      decision: "forward",
    });
  });

  test("unknown methods and unbounded tracers are refused without a violation (probing costs nothing)", () => {
    for (const method of ["eth_newFilter", "eth_subscribe", "eth_coinbase", "foo_bar", "eth_getWork"]) {
      const decision = rpcPolicy(method, []);
      expect(decision, method).toMatchObject({ decision: "refuse", code: METHOD_NOT_FOUND });
      expect(decision, method).not.toHaveProperty("violation");
    }
    for (const params of [["0x01"], ["0x01", {}], ["0x01", { tracer: "jsTracer" }]]) {
      const decision = rpcPolicy("debug_traceTransaction", params);
      expect(decision).toMatchObject({ decision: "refuse", code: INVALID_PARAMS });
      expect(decision).not.toHaveProperty("violation");
    }
  });
});
