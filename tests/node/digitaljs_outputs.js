// Opens a DigitalJS circuit in the real DigitalJS (the npm package, headless) and prints its
// outputs for input vectors: node digitaljs_outputs.js CIRCUIT.json VECTORS.txt. Each line of
// VECTORS.txt holds one '0'/'1' per input signal s (Button i_s; signals without a Button are
// skipped); each printed line holds one '0'/'1' per output o_c.
'use strict';
const fs = require('fs');
const { HeadlessCircuit } = require('digitaljs');
const { Vector3vl } = require('3vl');

const [circuitPath, vectorsPath] = process.argv.slice(2);
const data = JSON.parse(fs.readFileSync(circuitPath, 'utf8'));
const circuit = new HeadlessCircuit(data);
const buttons = Object.keys(data.devices).filter((id) => data.devices[id].type === 'Button');
const outputs = Object.keys(data.devices)
  .filter((id) => data.devices[id].type === 'Output')
  .sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
let printed = '';
for (const line of fs.readFileSync(vectorsPath, 'utf8').split('\n')) {
  if (line === '') continue;
  for (const id of buttons) circuit.setInput(id, Vector3vl.fromBool(line[Number(id.slice(2))] === '1'));
  while (circuit.hasPendingEvents) circuit.updateGates();
  printed += outputs.map((id) => circuit.getOutput(id).toBin()).join('') + '\n';
}
process.stdout.write(printed);
