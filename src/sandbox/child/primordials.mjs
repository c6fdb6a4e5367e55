// References captured when the runner's modules load, before any model code exists. A module can
// replace any global or prototype method (String.prototype.startsWith, Set.prototype.has,
// JSON.stringify, Object.prototype.toJSON, Error.prepareStackTrace, …): what runs after it may have
// run uses only these, so it cannot steer the runner (docs/SECURITY.md, "Built-in modules (preload)").
import * as nodeModule from "node:module";

export const { apply, defineProperty, getOwnPropertyDescriptor } = Reflect;
export const uncurry =
  (fn) =>
  (self, ...args) =>
    apply(fn, self, args);
export const startsWith = uncurry(String.prototype.startsWith);
export const stringSlice = uncurry(String.prototype.slice);
export const indexOf = uncurry(String.prototype.indexOf);
export const stringify = JSON.stringify;
export const parseJson = JSON.parse;
export const objectCreate = Object.create;
export const hasOwn = Object.hasOwn;
export const SafeError = Error;
export const bufferFrom = Buffer.from.bind(Buffer);
export const byteLength = Buffer.byteLength.bind(Buffer);
export const isView = ArrayBuffer.isView;
export const SafeMap = Map;
export const SafeSet = Set;
export const mapGet = uncurry(Map.prototype.get);
export const mapSet = uncurry(Map.prototype.set);
export const mapDelete = uncurry(Map.prototype.delete);
export const mapSize = uncurry(getOwnPropertyDescriptor(Map.prototype, "size").get);
export const promiseThen = uncurry(Promise.prototype.then);
export const SafePromise = Promise;
export const isBuiltin = nodeModule.isBuiltin;

/**
 * The error every barrier throws: `code` "ERR_ACCESS_DENIED" as the permission model's own, with the
 * permission and the resource, so the runner reports it as `permission_denied`.
 * @param {string} message the whole message, said to the model.
 * @param {string} permission the kind refused ("BuiltinModule", "Environment", "Signal", …).
 * @param {string} [resource] what was asked for, when there is one.
 * @returns {Error}
 */
export function accessDenied(message, permission, resource) {
  const error = new SafeError(message);
  for (const [key, value] of [
    ["code", "ERR_ACCESS_DENIED"],
    ["permission", permission],
    ["resource", resource],
  ])
    defineProperty(error, key, { value, writable: true, configurable: true, enumerable: true });
  return error;
}

/** Redefines `target[name]` for good: non-configurable, non-writable. */
export function lock(target, name, descriptor) {
  defineProperty(target, name, { configurable: false, enumerable: false, ...descriptor });
}

/** A function that throws {@link accessDenied} for `what`. */
export function deniedFunction(what, permission) {
  return function denied() {
    throw accessDenied(`${what} is not allowed in the benchmark sandbox.`, permission);
  };
}
