# Writes a DigitalJS file: Button i_4 -> a chain of n Not gates -> Output o_0 (awk -v n=N).
BEGIN {
  printf "{\"devices\": {\"i_4\": {\"type\": \"Button\"}, \"o_0\": {\"type\": \"Output\"}"
  for (i = 0; i < n; i++) printf ", \"g%d\": {\"type\": \"Not\"}", i
  printf "}, \"connectors\": ["
  for (i = 0; i < n; i++)
    printf "{\"from\": {\"id\": \"%s\", \"port\": \"out\"}, \"to\": {\"id\": \"g%d\", \"port\": \"in\"}}, ", (i ? "g" (i - 1) : "i_4"), i
  printf "{\"from\": {\"id\": \"g%d\", \"port\": \"out\"}, \"to\": {\"id\": \"o_0\", \"port\": \"in\"}}]}\n", n - 1
}
