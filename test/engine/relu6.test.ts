import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { loadModel, tf, wasmBackend } from '../../engine/analysis/models';
import { checkRelu6, fuseRelu6, type Relu6Clip } from '../../engine/analysis/relu6';

/** A graph as FaceRes writes ReLU6: x -> Relu -> Minimum(c6) -> Maximum(c0) -> Neg (a consumer of the clip). */
function clipGraph(six: number, zero: number) {
  const node = [
    { name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: { dim: [{ size: '6' }] } } } },
    { name: 'c6', op: 'Const', attr: { dtype: { type: 'DT_FLOAT' }, value: { tensor: { dtype: 'DT_FLOAT' } } } },
    { name: 'c0', op: 'Const', attr: { dtype: { type: 'DT_FLOAT' }, value: { tensor: { dtype: 'DT_FLOAT' } } } },
    { name: 'relu', op: 'Relu', input: ['x'] },
    { name: 'clip/Minimum', op: 'Minimum', input: ['relu', 'c6'] },
    { name: 'clip', op: 'Maximum', input: ['clip/Minimum', 'c0'] },
    { name: 'out', op: 'Neg', input: ['clip'] },
  ];
  const weights = new Float32Array([six, zero]);
  return {
    topology: { node, versions: { producer: 1 } },
    specs: [
      { name: 'c6', shape: [], dtype: 'float32' as const },
      { name: 'c0', shape: [], dtype: 'float32' as const },
    ],
    weightData: weights.buffer,
  };
}

async function load(g: ReturnType<typeof clipGraph>, fuse: boolean) {
  const topology = structuredClone(g.topology);
  const clips: Relu6Clip[] = fuse ? fuseRelu6(topology) : [];
  const model = await loadGraphModel(
    tf.io.fromMemory({ modelTopology: topology, weightSpecs: g.specs, weightData: g.weightData }),
  );
  return { model, clips, ops: topology.node.map((n) => n.op) };
}

describe("FaceRes' ReLU6 clips as one op", () => {
  beforeAll(() => wasmBackend());

  it('rewrites Relu -> Minimum(6) -> Maximum(0) to Relu -> Relu6 -> Identity, with the same values', async () => {
    const g = clipGraph(6, 0);
    const plain = await load(g, false);
    const fused = await load(g, true);
    expect(fused.ops).toEqual(['Placeholder', 'Const', 'Const', 'Relu', 'Relu6', 'Identity', 'Neg']);
    expect(fused.clips).toEqual([{ six: 'c6', zero: 'c0' }]);
    checkRelu6(fused.model, fused.clips);
    const x = tf.tensor1d([-3, -0, 0.5, 5.999, 6, 1e9]);
    const run = (m: typeof plain.model) => Array.from((m.execute(x, 'out') as tf.Tensor).dataSync());
    expect(run(fused.model)).toEqual(run(plain.model));
    expect(run(fused.model)).toEqual([-0, -0, -0.5, -5.999000072479248, -6, -6]);
  });

  it('refuses a clip whose constants are not 6 and 0, and leaves a Minimum with other consumers alone', async () => {
    const five = await load(clipGraph(5, 0), true);
    expect(() => checkRelu6(five.model, five.clips)).toThrow('not a ReLU6 clip: c6 = 5, c0 = 0');
    const g = clipGraph(6, 0);
    g.topology.node.push({ name: 'other', op: 'Neg', input: ['clip/Minimum'] });
    expect(fuseRelu6(g.topology)).toEqual([]);
    expect(g.topology.node.map((n) => n.op)).toContain('Minimum');
  });

  it('FaceRes loads with every one of its 27 clips made one op', async () => {
    const model = await loadModel('faceres');
    const ops = Object.values(
      (model as unknown as { executor: { graph: { nodes: Record<string, { op: string }> } } }).executor.graph.nodes,
    ).map((n) => n.op);
    expect(ops.filter((op) => op === 'Relu6')).toHaveLength(27);
    expect(ops).not.toContain('Minimum');
    expect(ops).not.toContain('Maximum');
  });
});
