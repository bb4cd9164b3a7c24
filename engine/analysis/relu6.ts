/**
 * Keras' ReLU6 as HSE FaceRes was converted: Relu -> Minimum(6) -> Maximum(0) after each of its 27 convolutions.
 * tfjs-wasm runs Minimum and Maximum against a scalar without SIMD: measured, they took 38 of FaceRes' 78 ms (the
 * convolutions 34). One Relu6 after the Relu gives the same values (clamps are exact, and the Relu's output is never
 * below 0), so at load the Minimum becomes that Relu6 and the Maximum an Identity; the two constants are checked once
 * the weights are loaded, so a model whose constants differ fails to load instead of computing something else.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';

interface NodeDef {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, unknown>;
}

/** A rewritten clip: the constants its Minimum and Maximum had (6 and 0). */
export interface Relu6Clip {
  six: string;
  zero: string;
}

/** Rewrites every Relu -> Minimum -> Maximum chain of `topology` (a tfjs graph's) in place; returns the clips. */
export function fuseRelu6(topology: { node?: NodeDef[] }): Relu6Clip[] {
  const nodes = topology.node ?? [];
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const uses = new Map<string, number>();
  for (const n of nodes) for (const i of n.input ?? []) uses.set(i, (uses.get(i) ?? 0) + 1);
  const clips: Relu6Clip[] = [];
  for (const max of nodes) {
    if (max.op !== 'Maximum' || max.input?.length !== 2) continue;
    const min = byName.get(max.input[0]);
    const relu = min?.op === 'Minimum' && min.input?.length === 2 ? byName.get(min.input[0]) : undefined;
    const consts = [min?.input?.[1], max.input[1]].map((name) => name && byName.get(name));
    if (!min || relu?.op !== 'Relu' || !consts.every((c) => c && c.op === 'Const')) continue;
    if (uses.get(min.name) !== 1) continue; // the Minimum feeds only the Maximum
    clips.push({ six: min.input![1], zero: max.input[1] });
    Object.assign(min, { op: 'Relu6', input: [relu.name] });
    Object.assign(max, { op: 'Identity', input: [min.name] });
  }
  return clips;
}

/** Fails unless each rewritten clip's constants were 6 and 0 in the loaded weights. */
export function checkRelu6(model: GraphModel, clips: readonly Relu6Clip[]): GraphModel {
  const value = (name: string) => model.weights[name]?.[0]?.dataSync()[0];
  const wrong = clips.find((c) => value(c.six) !== 6 || value(c.zero) !== 0);
  if (wrong)
    throw new Error(`not a ReLU6 clip: ${wrong.six} = ${value(wrong.six)}, ${wrong.zero} = ${value(wrong.zero)}`);
  return model;
}
