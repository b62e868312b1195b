// C and Verilog text for a hard circuit. Both languages share the gate expressions: ~ & | ^ are
// bitwise in C on 64-bit words and in Verilog on 1-bit wires.
#include "dlca/circuits/circuit_export.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>

namespace dlca {

namespace {

// The expression of a gate over operand names a and b; constants are given per language.
std::string gate_expression(int op, const std::string& a, const std::string& b,
                            const std::string& zero, const std::string& one) {
  switch (op) {
    case 0:
      return zero;
    case 1:
      return a + " & " + b;
    case 2:
      return a + " & ~" + b;
    case 3:
      return a;
    case 4:
      return "~" + a + " & " + b;
    case 5:
      return b;
    case 6:
      return a + " ^ " + b;
    case 7:
      return a + " | " + b;
    case 8:
      return "~(" + a + " | " + b + ")";
    case 9:
      return "~(" + a + " ^ " + b + ")";
    case 10:
      return "~" + b;
    case 11:
      return a + " | ~" + b;
    case 12:
      return "~" + a;
    case 13:
      return "~" + a + " | " + b;
    case 14:
      return "~(" + a + " & " + b + ")";
    default:
      return one;
  }
}

// Name of signal s: input names come from `input_name`, gates are g<i>.
template <typename InputName>
std::string signal_name(const Circuit& circuit, uint32_t s, InputName&& input_name) {
  return s < circuit.num_inputs() ? input_name(s) : fmt::format("g{}", s - circuit.num_inputs());
}

std::string patch_value_name(uint32_t s) { return fmt::format("p{}", s); }

}  // namespace

std::string statement_signal(const Circuit& circuit, uint32_t s) {
  return signal_name(circuit, s, patch_value_name);
}

std::string gate_statements(const Circuit& circuit, const std::string& prefix,
                            const std::string& zero, const std::string& one) {
  std::string out;
  for (size_t i = 0; i < circuit.gates.size(); ++i) {
    const CircuitGate& g = circuit.gates[i];
    out += fmt::format("{} g{} = {};\n", prefix, i,
                       gate_expression(g.op, statement_signal(circuit, g.a),
                                       statement_signal(circuit, g.b), zero, one));
  }
  return out;
}

namespace {

// How a language writes the loop over words of circuit_to_c and circuit_to_javascript.
struct WordLoopSyntax {
  const char* input_pointer;   // "{0}": the signal, declared once per used input
  const char* output_pointer;  // "{0}": the channel
  const char* loop;            // the loop's first line
  const char* value;           // the declaration before a word's name
  const char* zero;            // the constant words
  const char* one;
};

// The pointers, then the loop: load the used inputs' words, one statement per gate, store each
// channel's word (the loop's closing brace is the caller's).
std::string word_loop(const Circuit& circuit, const WordLoopSyntax& syntax) {
  std::string out;
  const std::vector<bool> used = circuit.used_inputs();
  for (uint32_t s = 0; s < circuit.num_inputs(); ++s)
    if (used[s]) out += fmt::format(fmt::runtime(syntax.input_pointer), s);
  for (int c = 0; c < circuit.channels; ++c)
    out += fmt::format(fmt::runtime(syntax.output_pointer), c);
  out += syntax.loop;
  for (uint32_t s = 0; s < circuit.num_inputs(); ++s)
    if (used[s]) out += fmt::format("{} p{} = in{}[w];\n", syntax.value, s, s);
  out += gate_statements(circuit, syntax.value, syntax.zero, syntax.one);
  for (int c = 0; c < circuit.channels; ++c)
    out += fmt::format("    out{}[w] = {};\n", c, statement_signal(circuit, circuit.outputs[c]));
  return out;
}

bool is_identifier(const std::string& name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), [](char ch) {
           return ch == '_' || (std::isalnum(static_cast<unsigned char>(ch)) && ch > 0);
         });
}

// Keywords of C89 to C23 and GNU C, and what <stddef.h> and <stdint.h> (which the export
// includes) declare or define.
bool is_c_keyword_or_taken(const std::string& name) {
  static const char* const kWords[] = {
      "auto",       "break",     "case",          "char",      "const",         "continue",
      "default",    "do",        "double",        "else",      "enum",          "extern",
      "float",      "for",       "goto",          "if",        "inline",        "int",
      "long",       "register",  "restrict",      "return",    "short",         "signed",
      "sizeof",     "static",    "struct",        "switch",    "typedef",       "union",
      "unsigned",   "void",      "volatile",      "while",     "alignas",       "alignof",
      "bool",       "constexpr", "false",         "nullptr",   "static_assert", "thread_local",
      "true",       "typeof",    "typeof_unqual", "asm",       "main",          "size_t",
      "ptrdiff_t",  "wchar_t",   "max_align_t",   "nullptr_t", "NULL",          "offsetof",
      "unreachable"};
  if (std::find(std::begin(kWords), std::end(kWords), name) != std::end(kWords)) return true;
  static const std::regex kStdint(
      "u?int(_least|_fast)?[0-9]+_t|u?int(ptr|max)_t|"
      "(U?INT(_LEAST|_FAST)?[0-9]+|U?INTPTR|U?INTMAX|PTRDIFF|SIZE|SIG_ATOMIC|WCHAR|WINT)_"
      "(MAX|MIN|WIDTH)|U?INT([0-9]+|MAX)_C");
  return std::regex_match(name, kStdint);
}

}  // namespace

std::string c_name_problem(const std::string& name) {
  if (!is_identifier(name))
    return "is not a C identifier (letters, digits and _, not a digit first)";
  if (name[0] == '_' && (name.size() == 1 || name[1] == '_' || std::isupper(name[1])))
    return "is reserved in C (a leading _ and a capital or a second _)";
  if (is_c_keyword_or_taken(name)) return "is a C keyword or a name <stdint.h>/<stddef.h> declare";
  return "";
}

std::string verilog_name_problem(const std::string& name) {
  // The modules are NAME_cell and NAME_grid: no Verilog keyword ends that way, so only the form
  // of an identifier matters (Verilog also allows $ after the first character; dlca does not).
  if (!is_identifier(name))
    return "is not a Verilog identifier (letters, digits and _, not a digit first)";
  return "";
}

std::string identifier_from(const std::string& text) {
  std::string id;
  for (char ch : text) id += std::isalnum(static_cast<unsigned char>(ch)) && ch > 0 ? ch : '_';
  if (id.empty() || !std::isalpha(static_cast<unsigned char>(id[0]))) id = "c_" + id;
  if (!c_name_problem(id).empty()) id += "_";  // a keyword or a header's name
  return id;
}

std::string circuit_to_c(const Circuit& circuit, const std::string& name) {
  if (const std::string problem = c_name_problem(name); !problem.empty())
    throw std::invalid_argument("'" + name + "' " + problem);
  std::string out = fmt::format(
      "/* Generated by dlca: the hard circuit of one cell ({} channels, {} gates), bit-parallel.\n"
      " * patch[9*c + p][w]: bit i is patch position p (row-major 3x3, 4 = the cell itself) of\n"
      " * channel c for cell 64*w + i. next[c][w]: that cell's new state in channel c. */\n"
      "#include <stddef.h>\n#include <stdint.h>\n\n"
      "void {}(const uint64_t *const *patch, uint64_t *const *next, size_t words) {{\n",
      circuit.channels, circuit.gates.size(), name);
  out += word_loop(circuit, {"  const uint64_t *restrict in{0} = patch[{0}];\n",
                             "  uint64_t *restrict out{0} = next[{0}];\n",
                             "  for (size_t w = 0; w < words; ++w) {\n", "    const uint64_t",
                             "(uint64_t)0", "~(uint64_t)0"});
  out += "  }\n}\n";
  return out;
}

std::string circuit_to_javascript(const Circuit& circuit) {
  std::string out = fmt::format(
      "(function (patch, next, words) {{\n"
      "  // dlca: the hard circuit of one cell ({} channels, {} gates), 32 cells per word.\n",
      circuit.channels, circuit.gates.size());
  out += word_loop(circuit, {"  const in{0} = patch[{0}];\n", "  const out{0} = next[{0}];\n",
                             "  for (let w = 0; w < words; ++w) {\n", "    const", "0", "-1"});
  out += "  }\n})";
  return out;
}

std::string circuit_to_verilog(const Circuit& circuit, const std::string& name) {
  if (const std::string problem = verilog_name_problem(name); !problem.empty())
    throw std::invalid_argument("'" + name + "' " + problem);
  const int C = circuit.channels;
  const auto input = [](uint32_t s) { return fmt::format("patch[{}]", s); };
  std::string out = fmt::format(
      "// Generated by dlca: the hard circuit of one cell ({} channels, {} gates).\n"
      "// patch[9*c + p]: patch position p (row-major 3x3, 4 = the cell itself) of channel c.\n"
      "module {}_cell (\n  input wire [{}:0] patch,\n  output wire [{}:0] next\n);\n",
      C, circuit.gates.size(), name, 9 * C - 1, C - 1);
  for (size_t i = 0; i < circuit.gates.size(); ++i) {
    const CircuitGate& g = circuit.gates[i];
    out += fmt::format("  wire g{} = {};\n", i,
                       gate_expression(g.op, signal_name(circuit, g.a, input),
                                       signal_name(circuit, g.b, input), "1'b0", "1'b1"));
  }
  for (int c = 0; c < C; ++c)
    out += fmt::format("  assign next[{}] = {};\n", c,
                       signal_name(circuit, circuit.outputs[c], input));
  out += "endmodule\n\n";
  out += fmt::format(
      "// A WIDTH x HEIGHT grid of {0}_cell; state bit (c * HEIGHT + y) * WIDTH + x. `load` "
      "copies\n"
      "// `init`; otherwise every rising clock edge is one synchronous step. PERIODIC = 1 wraps "
      "the\n"
      "// edges (torus); 0 reads zeros beyond them.\n"
      "module {0}_grid #(\n  parameter WIDTH = 16,\n  parameter HEIGHT = 16,\n"
      "  parameter PERIODIC = 1\n) (\n  input wire clk,\n  input wire load,\n"
      "  input wire [{1}*WIDTH*HEIGHT-1:0] init,\n  output reg [{1}*WIDTH*HEIGHT-1:0] state\n);\n"
      "  wire [{1}*WIDTH*HEIGHT-1:0] next_state;\n"
      "  genvar y, x, c, p;\n"
      "  generate\n"
      "    for (y = 0; y < HEIGHT; y = y + 1) begin : row\n"
      "      for (x = 0; x < WIDTH; x = x + 1) begin : column\n"
      "        wire [{2}:0] patch;\n"
      "        wire [{3}:0] next;\n"
      "        for (c = 0; c < {1}; c = c + 1) begin : channel\n"
      "          for (p = 0; p < 9; p = p + 1) begin : position\n"
      "            localparam integer NY = y + p / 3 - 1;\n"
      "            localparam integer NX = x + p % 3 - 1;\n"
      "            localparam integer INSIDE = NY >= 0 && NY < HEIGHT && NX >= 0 && NX < WIDTH;\n"
      "            localparam integer WY = (NY + HEIGHT) % HEIGHT;\n"
      "            localparam integer WX = (NX + WIDTH) % WIDTH;\n"
      "            if (INSIDE || PERIODIC)\n"
      "              assign patch[9 * c + p] = state[(c * HEIGHT + WY) * WIDTH + WX];\n"
      "            else\n"
      "              assign patch[9 * c + p] = 1'b0;\n"
      "          end\n"
      "          assign next_state[(c * HEIGHT + y) * WIDTH + x] = next[c];\n"
      "        end\n"
      "        {0}_cell step (.patch(patch), .next(next));\n"
      "      end\n"
      "    end\n"
      "  endgenerate\n"
      "  always @(posedge clk) state <= load ? init : next_state;\n"
      "endmodule\n",
      name, C, 9 * C - 1, C - 1);
  return out;
}

}  // namespace dlca
