"""Writes a model of a wide network whose every gate is XOR, so that nothing prunes away: a circuit
of as many gates as the network. `xor_model.py config EXPERIMENT OUT`: a copy of the experiment
with an update network about 47,000 gates large; `xor_model.py logits MODEL OUT`: the model file
with every gate's logits set to XOR (10 for op 6, 0 for the others), its checksum recomputed."""
import json
import re
import sys
import zlib

what, source, out = sys.argv[1:4]
if what == "config":
    experiment = json.load(open(source))
    layers = [264] + [4096] * 10 + [2048, 1024, 512, 256, 128, 64, 32, 16, 8, 8]
    experiment["config"].update(update_layers=layers, random_streams="dlca",
                                update_connections=["unique"] * (len(layers) - 1))
    json.dump(experiment, open(out, "w"))
else:
    # The checksum is the CRC-32 of the file's text without its "checksum" entry.
    text = open(source).read().rstrip("\n")
    count = len(json.loads(text)["logits"])
    start = text.index('"logits":[') + len('"logits":[')
    xor = ",".join("10.0" if i % 16 == 6 else "0.0" for i in range(count))
    text = text[:start] + xor + text[text.index("]", start):]
    entry = re.search(r'"checksum":"(crc32:[0-9a-f]{8})",', text)
    crc = zlib.crc32(text.replace(entry.group(0), "").encode())
    open(out, "w").write(text.replace(entry.group(1), "crc32:%08x" % crc) + "\n")
