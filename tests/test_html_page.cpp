// The browser page's text (html_page.hpp): the markers are filled, the data block cannot be ended
// by what the strings hold, and the circuit's JavaScript kernel is there. The page itself runs in
// headless Chromium in tests/browser.
#include <doctest/doctest.h>

#include <string>

#include "dlca/circuits/circuit_export.hpp"
#include "dlca/web/html_page.hpp"

namespace {

size_t occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

dlca::Circuit and_of_neighbours() {  // one channel: next = N AND S
  dlca::Circuit circuit;
  circuit.channels = 1;
  circuit.gates.push_back({1, dlca::Circuit::input(0, 1), dlca::Circuit::input(0, 7), 0, 0, "u"});
  circuit.outputs = {9};
  return circuit;
}

}  // namespace

TEST_CASE("the browser page holds its style, script and data, and strings stay data") {
  dlca::PageContent content;
  content.circuit = and_of_neighbours();
  content.title = "</script><script>alert(1)</script><!--";
  content.source = "a<b>.json";
  const std::string page = dlca::circuit_page_html(content);
  CHECK(occurrences(page, "/*DLCA_") == 0);
  // Only the page's own two script elements close; the hostile title is escaped inside the JSON.
  CHECK(occurrences(page, "</script") == 2);
  CHECK(occurrences(page, "<!--") == 1);  // the page's own comment at the top
  CHECK(page.find("\\u003c/script>\\u003cscript>alert(1)") != std::string::npos);
  CHECK(page.find("const g0 = p1 & p7;") != std::string::npos);
  CHECK(page.find("out0[w] = g0;") != std::string::npos);
}

TEST_CASE("the JavaScript kernel reads only the inputs the circuit uses") {
  const std::string js = dlca::circuit_to_javascript(and_of_neighbours());
  CHECK(js.rfind("(function (patch, next, words) {", 0) == 0);
  CHECK(js.find("const in1 = patch[1];") != std::string::npos);
  CHECK(js.find("const in7 = patch[7];") != std::string::npos);
  CHECK(js.find("patch[4]") == std::string::npos);
  CHECK(js.substr(js.size() - 2) == "})");
}
