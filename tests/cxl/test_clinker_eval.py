"""Clinker's own CXL evaluator tests, run on Spark through the harness.

Origin: rustpunk/clinker crates/cxl/src/eval/tests.rs (104 tests) and
crates/cxl/src/eval/compiled/tests.rs (64 tests). Every test about *values* (an expression
or a small program over given field values, with an expected value or runtime error) is a
case here, under a comment naming it. Clinker's fields are untyped in those tests; here each
gets the CXL type of its value. Where clinker-sql refuses a feature at compile time (CS001)
the case expects that refusal (`Lowered`), which is its documented behaviour.

Not translated, and why:

* Rust internals: compiled/tests.rs::construction_budget_checks_limits_before_committing_growth
  (allocation budget struct), ::module_function_typed_proof_corruption_is_internal_invariant
  (a mutated typed AST), eval/tests.rs::test_eval_regex_precompiled's side-table check (its
  value, `"123".matches("\\d+")`, is a case), ::compiled_eval_is_deterministic and
  ::compiled_statement_seq_is_deterministic (proptests that the compiled path is
  deterministic, no expected values).
* Logging only: compiled/tests.rs::trace_channel_golden (the `tracing` events a `trace`
  writes; clinker-sql writes no log). The `trace` statements' effect on values is covered by
  the eval/tests.rs::test_log_level4_* cases.
* Parse / type-check diagnostics, not values: eval/tests.rs::unknown_window_function_errors,
  ::registered_window_function_typechecks, ::free_standing_closure_rejected_at_parse,
  ::nested_emit_each_too_deep_rejected_by_parser (tests/cxl/test_statements.py has the
  nesting limit).
* Several rows: compiled/tests.rs::distinct_duplicate_skip, ::distinct_partition_reset,
  ::distinct_bare_all_fields, ::distinct_nan_key_errors (a dedup set across a record stream
  and partitions; tests/e2e/test_distinct.py runs `distinct` on whole pipelines).
* Values of Clinker's test fixture, not of CXL: compiled/tests.rs::system_access and
  ::system_access_builtins_and_doc's `$source.row` / `$source.file` / `$pipeline.name`
  (StableEvalContext::test_default's "test.csv", "test_pipeline", clock 2026-01-15), and
  ::vars_access, ::qualified_source_access, ::record_access_read,
  ::qualified_field_ref_three_part (a resolver seeded by hand; clinker-sql sets
  these names from the pipeline, tested end to end in tests/e2e). eval/tests.rs::
  test_eval_now_with_fixed_clock is kept only as "now is a datetime".
* The window tests' fixtures (eval/tests.rs::any_every, ::ranking_and_value,
  compiled/tests.rs::window_*) implement the window themselves; the cases below run the
  same partitions through clinker-sql's analytic window. Their empty-partition cases are
  left out (unreachable: the current row is in its partition, as the tests say).
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from .harness import NAN, SKIP, Err, check, evaluate_programs, evaluate_window


class Fails:
    """Clinker asserts only that the error's display contains this text."""

    def __init__(self, needle: str):
        self.needle = needle


class Lowered:
    """clinker-sql refuses the expression at compile time with this code."""

    def __init__(self, code: str):
        self.code = code


def verify(out, expected) -> None:
    if isinstance(expected, Fails):
        assert out.error is not None and expected.needle in out.error, \
            f"error {out.error!r}, value {out.value!r}\nSQL: {out.sql}"
        return
    if isinstance(expected, Lowered):
        assert out.error is not None and out.error.startswith(f"LOWER {expected.code}:"), \
            f"error {out.error!r}, value {out.value!r}"
        return
    check(out, expected)


def dec(mantissa: int, scale: int) -> Decimal:
    return Decimal(mantissa).scaleb(-scale)


def i(v):
    return ("int", v)


def f(v):
    return ("float", v)


def s(v):
    return ("string", v)


def b(v):
    return ("bool", v)


NUMS = {"nums": ("array<int>", [10, 20, 30])}
ABC = {"nums": ("array<int>", [1, 2, 3])}


# ---- expressions: one Spark query per table ----------------------------------------------
CASES = [
    # eval/tests.rs::nested_literals_evaluate_in_author_order
    # (values of several types: each held as its JSON text, cxl/json_values.py); the same
    # literal with Int values keeps the author's key order
    ("{first: [1, 2], [key]: {active: true}, last: null}",
     {"first": "[1,2]", "computed": '{"active":true}', "last": None},
     {"key": s("computed")}),
    ("{first: 1, [key]: 2, last: null}.keys()", ["first", "computed", "last"],
     {"key": s("computed")}),
    ("{first: 1, [key]: 2, last: null}", {"first": 1, "computed": 2, "last": None},
     {"key": s("computed")}),
    # eval/tests.rs::array_comprehension_filters_and_preserves_order
    ("[item * 2 for item in values if item > 0]", [6, 4],
     {"values": ("array<int>", [3, -1, 2])}),
    # eval/tests.rs::duplicate_map_key_fails_at_first_duplicate
    ("{name: 1, [key]: 2}", Fails("name"), {"key": s("name")}),
    # eval/tests.rs::null_computed_key_and_null_comprehension_source_fail
    ("{[key]: 1}", Fails("non-null String map key"), {"key": s(None)}),
    ("[item for item in source]", Fails("Array comprehension source"),
     {"source": ("array<int>", None)}),
    # eval/tests.rs::computed_map_keys_use_the_same_canonical_escape_grammar
    ("{[key]: 1}", Fails("\\ordinary"), {"key": s("\\ordinary")}),
    # eval/tests.rs::test_eval_decimal_addition_is_exact
    ("a + b", dec(30, 2), {"a": ("decimal(10,2)", dec(10, 2)), "b": ("decimal(10,2)", dec(20, 2))}),
    # eval/tests.rs::test_eval_decimal_times_int_is_exact
    ("price * qty", dec(750, 2), {"price": ("decimal(10,2)", dec(250, 2)), "qty": i(3)}),
    # eval/tests.rs::test_eval_cast_to_decimal_and_back
    # (Clinker keeps each string's own scale, 0.30; here a decimal of no declared scale is
    # held at 18 places: the same number)
    ("a.to_decimal() + b.to_decimal() == '0.30'.to_decimal()", True,
     {"a": s("0.10"), "b": s("0.20")}),
    ("(a.to_decimal() + b.to_decimal()).to_string()", "0.3", {"a": s("0.10"), "b": s("0.20")}),
    ("x.to_float()", 2.5, {"x": ("decimal(10,2)", dec(250, 2))}),
    ("x.to_int()", 2, {"x": ("decimal(10,2)", dec(299, 2))}),
    ("x.to_string()", "2.50", {"x": ("decimal(10,2)", dec(250, 2))}),
    # eval/tests.rs::test_eval_decimal_comparison_and_round
    ("a > b", True, {"a": ("decimal(10,2)", dec(1050, 2)), "b": ("decimal(10,2)", dec(1049, 2))}),
    ("x.round(2)", dec(212, 2), {"x": ("decimal(10,3)", dec(2125, 3))}),
    # eval/tests.rs::test_eval_decimal_round_to_stays_decimal_and_composes
    ("x.round_to(2)", dec(2000, 2), {"x": ("decimal(10,3)", dec(19995, 3))}),
    ("amount.round_to(2) + fee", dec(262, 2),
     {"amount": ("decimal(10,3)", dec(2125, 3)), "fee": ("decimal(10,2)", dec(50, 2))}),
    # eval/tests.rs::test_eval_arithmetic_null_propagation
    ("x + 1", None, {"x": i(None)}),
    ("2 + 3", 5),
    # eval/tests.rs::test_eval_comparison_null_semantics
    ("x == null", True, {"x": i(None)}),
    ("x != 1", True, {"x": i(None)}),
    ("x > 1", None, {"x": i(None)}),
    # eval/tests.rs::test_eval_coalesce_short_circuit
    ('"hello" ?? "world"', "hello"),
    # eval/tests.rs::test_eval_match_condition_form
    ('match { age > 18 => "adult", _ => "minor" }', "adult", {"age": i(25)}),
    # eval/tests.rs::test_eval_match_value_form
    ('match status { "A" => "active", "I" => "inactive", _ => "unknown" }', "active",
     {"status": s("A")}),
    # eval/tests.rs::test_eval_if_then_else_missing_else
    ("if false then 1", None),
    # eval/tests.rs::test_eval_string_methods_core
    ('" hello ".trim()', "hello"),
    ('"hi".upper()', "HI"),
    ('"HI".lower()', "hi"),
    ('"hello".length()', 5),
    ('"hello world".replace("world", "rust")', "hello rust"),
    ('"hello".substring(1, 3)', "ell"),
    # eval/tests.rs::test_eval_string_methods_regex (and ::test_eval_regex_precompiled)
    ('"123".matches("\\\\d+")', True),
    ('"abc123def".capture("(\\\\d+)")', "123"),
    # eval/tests.rs::test_eval_string_methods_path
    ('"data/orders.csv".file_name()', "orders.csv"),
    ('"data/orders.csv".file_stem()', "orders"),
    ('"data/orders.csv".extension()', "csv"),
    ('"data/batch/orders.csv".parent()', "data/batch"),
    ('"data/batch/orders.csv".parent_name()', "batch"),
    # eval/tests.rs::test_eval_numeric_methods
    ("(-5).abs()", 5),
    ("3.7.ceil()", 4),
    ("3.2.floor()", 3),
    ("3.456.round()", 3.0),
    ("3.456.round_to(2)", 3.46),
    ("x.clamp(0, 100)", 100, {"x": i(150)}),
    # eval/tests.rs::test_eval_date_methods
    ("d.year()", 2026, {"d": ("date", "2026-03-15")}),
    ("d.month()", 3, {"d": ("date", "2026-03-15")}),
    ("d.day()", 15, {"d": ("date", "2026-03-15")}),
    ("d.add_days(7)", datetime.date(2026, 3, 22), {"d": ("date", "2026-03-15")}),
    ('d.format_date("%Y-%m-%d")', "2026-03-15", {"d": ("date", "2026-03-15")}),
    # eval/tests.rs::test_eval_conversion_strict (Clinker asserts only that it fails)
    ('"42".to_int()', 42),
    ('"abc".to_int()', Fails("")),
    # eval/tests.rs::test_eval_conversion_lenient
    ('"abc".try_int()', None),
    ('"2.5".try_float()', 2.5),
    # eval/tests.rs::test_eval_introspection
    ('"hello".type_of()', "string"),
    ("42.type_of()", "int"),
    ("null.is_null()", True),
    ("42.is_null()", False),
    # eval/tests.rs::test_eval_three_valued_and / ::test_eval_three_valued_or
    ("false and x", False, {"x": b(None)}),
    ("true or x", True, {"x": b(None)}),
    # eval/tests.rs::test_log_level3_passthrough_value / ::test_log_level3_emits_trace /
    # ::test_log_level3_debug_no_prefix / ::test_log_level3_debug_null /
    # ::test_log_level3_debug_chained
    ('Name.debug("check")', "Alice", {"Name": s("Alice")}),
    ('Name.debug("dbg")', "Bob", {"Name": s("Bob")}),
    ("Name.debug()", "Carol", {"Name": s("Carol")}),
    ('Name.debug("check")', None, {"Name": s(None)}),
    ('Name.debug("first").debug("second")', 42, {"Name": i(42)}),
    # eval/tests.rs::compiled_scalar_evaluates_windowless_surface
    ("42", 42),
    ("3.5", 3.5),
    ('"hi"', "hi"),
    ("true", True),
    ("null", None),
    ("amount", 7, {"amount": i(7)}),
    ("missing", None, {"amount": i(7), "missing": i(None)}),
    ("amount + 1", 42, {"amount": i(41)}),
    ("amount + 1", None, {"amount": i(None)}),
    ("a + b", 3.5, {"a": f(1.5), "b": i(2)}),
    ("first + last", "abcd", {"first": s("ab"), "last": s("cd")}),
    ("amount > 10", False, {"amount": i(5)}),
    ("flag and amount > 0", None, {"flag": b(None), "amount": i(3)}),
    ("flag or amount > 0", True, {"flag": b(False), "amount": i(3)}),
    ("amount == null", True, {"amount": i(None)}),
    ("missing ?? amount", 9, {"amount": i(9), "missing": i(None)}),
    ('if amount > 0 then "pos" else "nonpos"', "nonpos", {"amount": i(-1)}),
    ('match status { "A" => "active", _ => "other" }', "active", {"status": s("A")}),
    ("-amount", -4, {"amount": i(4)}),
    ("name.upper()", "ABC", {"name": s("abc")}),
    ('code.matches("\\\\d+")', True, {"code": s("123")}),
    ("items.filter(it => it > 1)", [2, 3], {"items": ("array<int>", [1, 2, 3])}),
    ("amount / 0", Fails("zero"), {"amount": i(8)}),
    # eval/tests.rs::closure_filter_returns_matching_elements / ::closure_map_transforms_elements
    # / ::closure_any_returns_bool
    ("nums.filter(it => it > 1)", [2, 3], ABC),
    ("nums.map(it => it + 10)", [11, 12], {"nums": ("array<int>", [1, 2])}),
    ("nums.any(it => it > 5)", True, {"nums": ("array<int>", [1, 7])}),
    # eval/tests.rs::bracket_index_array / ::bracket_index_map_string_key
    ("nums[1]", 20, NUMS),
    ('m["k1"]', 42, {"m": ("map<int>", {"k1": 42})}),
    # eval/tests.rs::map_keys_and_values
    ("m.keys()", ["a", "b"], {"m": ("map<int>", {"a": 1, "b": 2})}),
    ("m.values()", [1, 2], {"m": ("map<int>", {"a": 1, "b": 2})}),
    # eval/tests.rs::map_merge_and_set_and_remove_field
    ("a.merge(b)", {"a": 1, "b": 2}, {"a": ("map<int>", {"a": 1}), "b": ("map<int>", {"b": 2})}),
    ('a.set("x", 99)', {"a": 1, "x": 99}, {"a": ("map<int>", {"a": 1})}),
    ('a.remove_field("a")', {}, {"a": ("map<int>", {"a": 1})}),
    # eval/tests.rs::nested_set_* and ::nested_unset_*: a nested path (`a.b`, `items[1]`) is
    # refused with CS001 (docs/cxl-coverage.md, `set` / `unset`), so every case is
    ('doc.set("address.city", "NYC")', Lowered("CS001"),
     {"doc": ("map<map<string>>", {"address": {"city": "LA", "zip": "90001"}})}),
    ('doc.set("a.b.c", 7)', Lowered("CS001"), {"doc": ("map<int>", {})}),
    ('doc.set("a.b", 1)', Lowered("CS001"), {"doc": ("map<string>", {"a": "scalar"})}),
    ('doc.set("items[1].name", "X")', Lowered("CS001"),
     {"doc": ("map<array<map<string>>>", {"items": [{"name": "a"}, {"name": "b"}]})}),
    ('doc.set("items[5].name", "X")', Lowered("CS001"),
     {"doc": ("map<array<map<string>>>", {"items": [{"name": "a"}, {"name": "b"}]})}),
    ('doc.set("items.name", "X")', Lowered("CS001"), {"doc": ("map<array<int>>", {"items": [1]})}),
    ('doc.unset("a.b")', Lowered("CS001"), {"doc": ("map<map<int>>", {"a": {"b": 1, "c": 2}})}),
    ('doc.unset("items[0]")', Lowered("CS001"), {"doc": ("map<array<int>>", {"items": [10]})}),
    ('doc.unset("items[1].sku")', Lowered("CS001"),
     {"doc": ("map<array<map<string>>>", {"items": [{"sku": "a"}]})}),
    ('doc.unset("a[0]")', Lowered("CS001"), {"doc": ("map<map<int>>", {"a": {"b": 1}})}),
    # eval/tests.rs::single_key_set_still_inserts_at_top_level
    ('doc.set("k", 1)', {"k": 1}, {"doc": ("map<int>", {})}),
    # eval/tests.rs::nested_unset_removes_whole_submap_by_bare_key
    ('doc.unset("a")', {"k": {"x": 2}}, {"doc": ("map<map<int>>", {"a": {"b": 1}, "k": {"x": 2}})}),
    # eval/tests.rs::single_key_unset_behaves_like_remove_field
    ('doc.unset("region")', {"tier": "gold"},
     {"doc": ("map<string>", {"region": "us-east", "tier": "gold"})}),
    ('doc.remove_field("region")', {"tier": "gold"},
     {"doc": ("map<string>", {"region": "us-east", "tier": "gold"})}),
    # eval/tests.rs::array_remove_returns_new_array_without_index
    ("nums.remove(1)", [10, 30], NUMS),
    # compiled/tests.rs::kleene_truth_table and ::null_or_kleene_cells
    *[(f"a {op} b", want, {"a": b(x), "b": b(y)})
      for x, y, and_, or_ in [(True, True, True, True), (True, False, False, True),
                              (True, None, None, True), (False, True, False, True),
                              (False, False, False, False), (False, None, False, None),
                              (None, True, None, True), (None, False, False, None),
                              (None, None, None, None)]
      for op, want in (("and", and_), ("or", or_))],
    # compiled/tests.rs::kleene_short_circuit_side_effect: Clinker gives the Int right operand
    # itself for `true and x`, which a bool column cannot hold (refused, CS001); the same
    # short circuit with a bool right operand, and a non-bool left operand (null, the right
    # one unread)
    ("a and (1 / z)", Lowered("CS001"), {"a": b(False), "z": i(0)}),
    ("a or (1 / z)", Lowered("CS001"), {"a": b(True), "z": i(0)}),
    ("a and (1 / z)", Lowered("CS001"), {"a": b(True), "z": i(0)}),
    ("a and (1 / z) == 1", False, {"a": b(False), "z": i(0)}),
    ("a or (1 / z) == 1", True, {"a": b(True), "z": i(0)}),
    ("a and (1 / z) == 1", Err("division by zero"), {"a": b(True), "z": i(0)}),
    ("(1 + z) and (1 / z) == 1", None, {"z": i(0)}),
    ("not (1 + z)", None, {"z": i(0)}),
    ("z and true", Lowered("E200"), {"z": i(0)}),  # an Int field used as bool
    # compiled/tests.rs::null_propagation
    *[(f"a {op} b", None, {"a": i(None), "b": i(3)})
      for op in ["+", "-", "*", "/", "%", ">", "<", ">=", "<="]],
    # compiled/tests.rs::eq_neq_on_null
    ("a == b", False, {"a": i(None), "b": i(3)}),
    ("a == b", True, {"a": i(None), "b": i(None)}),
    ("a != b", True, {"a": i(None), "b": i(3)}),
    # compiled/tests.rs::coalesce_short_circuit
    ("a ?? (1 / z)", 7, {"a": i(7), "z": i(0)}),
    ("a ?? b", 9, {"a": i(None), "b": i(9)}),
    # compiled/tests.rs::if_then_else
    ('if a > 0 then "pos" else "nonpos"', "pos", {"a": i(5)}),
    ('if a > 0 then "pos" else "nonpos"', "nonpos", {"a": i(-5)}),
    ('if a > 0 then "pos" else "nonpos"', "nonpos", {"a": i(None)}),
    # compiled/tests.rs::match_forms
    ('match status { "a" => 1, "b" => 2, _ => 0 }', 2, {"status": s("b")}),
    ('match status { "a" => 1, "b" => 2, _ => 0 }', 0, {"status": s("z")}),
    ('match { a > 10 => "big", a > 0 => "small", _ => "neg" }', "small", {"a": i(5)}),
    # compiled/tests.rs::unary_ops
    ("-a", -4, {"a": i(4)}),
    ("not a", False, {"a": b(True)}),
    ("not a", None, {"a": b(None)}),
    # compiled/tests.rs::index_access
    ("nums[1]", 20, NUMS),
    ("nums[9]", None, NUMS),
    ("nums[0 - 1]", None, NUMS),
    # compiled/tests.rs::doc_access_*: `$doc` is refused (CS001, not supported yet)
    ("$doc.Head.batch_id", Lowered("CS001")),
    ("$doc.any.field", Lowered("CS001")),
    ("$doc.Head.items[0]", Lowered("CS001")),
    ('$doc.Head.meta["region"]', Lowered("CS001")),
    ('$doc.Head.items[1]["k"]', Lowered("CS001")),
    ("$doc.header.title", Lowered("CS001")),  # ::system_access_builtins_and_doc
    # compiled/tests.rs::error_span_fidelity_overflow
    ("-a", Fails("overflow"), {"a": i(-2**63)}),
    # compiled/tests.rs::string_methods
    ("s.upper()", "ABC", {"s": s("abc")}),
    ("s.lower()", "abc", {"s": s("ABC")}),
    ("s.trim()", "hi", {"s": s("  hi  ")}),
    ("s.length()", 5, {"s": s("hello")}),
    ('s.contains("ell")', True, {"s": s("hello")}),
    ('s.starts_with("he")', True, {"s": s("hello")}),
    ('s.replace("l", "L")', "heLLo", {"s": s("hello")}),
    ("s.substring(1, 3)", "ell", {"s": s("hello")}),
    ("s.trim().upper()", "HI", {"s": s("  hi  ")}),
    # compiled/tests.rs::numeric_methods
    ("n.abs()", 7, {"n": i(-7)}),
    ("n.abs()", 2.5, {"n": f(-2.5)}),
    ("n.ceil()", 3, {"n": f(2.1)}),
    ("n.floor()", 2, {"n": f(2.9)}),
    ("n.round()", 3.0, {"n": f(2.5)}),
    ("n.to_float()", 3.0, {"n": i(3)}),
    ("n.to_string()", "42", {"n": i(42)}),
    ("n.min(10)", 3, {"n": i(3)}),
    ("n.max(10)", 10, {"n": i(3)}),
    # compiled/tests.rs::method_null_receiver_gate
    ("s.upper()", None, {"s": s(None)}),
    ("s.length()", None, {"s": s(None)}),
    ("s.trim()", None, {"s": s(None)}),
    ('s.contains("x")', None, {"s": s(None)}),
    # compiled/tests.rs::method_null_receiver_exceptions (`s` an Int field for catch(99))
    ("s.is_null()", True, {"s": s(None)}),
    ("s.catch(99)", 99, {"s": i(None)}),
    ("s.type_of()", "null", {"s": s(None)}),
    ("s.is_empty()", True, {"s": s(None)}),
    # compiled/tests.rs::regex_methods
    ('s.matches("^[a-z]+$")', True, {"s": s("abc")}),
    ('s.matches("^[a-z]+$")', False, {"s": s("abc123")}),
    ('s.find("[0-9]+")', True, {"s": s("abc123")}),
    ('s.find("[0-9]+")', False, {"s": s("abc")}),
    ('s.capture("([a-z]+)([0-9]+)")', "abc123", {"s": s("abc123")}),
    # compiled/tests.rs::closure_builtins_populated
    ("nums.filter(it => it > 1)", [2, 3], ABC),
    ("nums.map(it => it + 10)", [11, 12, 13], ABC),
    ("nums.find(it => it > 1)", 2, ABC),
    ("nums.any(it => it > 5)", False, ABC),
    ("nums.find(it => it > 99)", None, ABC),
    ("nums.any(it => it > 99)", False, ABC),
    ('strs.flat_map(it => it.split(","))', ["a", "b", "c"],
     {"strs": ("array<string>", ["a,b", "c"])}),
    # compiled/tests.rs::closure_builtins_null_receiver
    *[(e, None, {"nums": ("array<int>", None)})
      for e in ["nums.filter(it => it > 1)", "nums.map(it => it + 10)",
                "nums.find(it => it > 1)", "nums.any(it => it > 1)"]],
    ('strs.flat_map(it => it.split(","))', None, {"strs": ("array<string>", None)}),
    # compiled/tests.rs::closure_builtins_empty_array
    ("nums.filter(it => it > 1)", [], {"nums": ("array<int>", [])}),
    ("nums.map(it => it + 1)", [], {"nums": ("array<int>", [])}),
    ("nums.find(it => it > 1)", None, {"nums": ("array<int>", [])}),
    ("nums.any(it => it > 1)", False, {"nums": ("array<int>", [])}),
    ('strs.flat_map(it => it.split(","))', [], {"strs": ("array<string>", [])}),
    # compiled/tests.rs::mixed_int_float_comparison
    ("a > b", True, {"a": i(2), "b": f(1.5)}),
    ("a < b", True, {"a": f(1.5), "b": i(2)}),
    ("a == b", True, {"a": i(2), "b": f(2.0)}),
    # compiled/tests.rs::string_ordering
    ("a < b", True, {"a": s("apple"), "b": s("banana")}),
    ("a >= b", True, {"a": s("zoo"), "b": s("zoo")}),
    # compiled/tests.rs::nan_result_is_canonicalized
    ("a + b", NAN, {"a": f(NAN), "b": f(2.0)}),
    ("a * b", NAN, {"a": f(NAN), "b": f(2.0)}),
    ("a / b", NAN, {"a": f(NAN), "b": f(2.0)}),
    # compiled/tests.rs::generated_method_shapes (a = 5, b = "x")
    ("(a).to_string()", "5", {"a": i(5), "b": s("x")}),
    ("(a).is_null()", False, {"a": i(5), "b": s("x")}),
    ("(a).type_of()", "int", {"a": i(5), "b": s("x")}),
    ("((a + 1)).to_string()", "6", {"a": i(5), "b": s("x")}),
    # (an Int receiver with a String fallback: refused, CS001; with an Int fallback, 5)
    ("(a).catch(b)", Lowered("CS001"), {"a": i(5), "b": s("x")}),
    ("(a).catch(0)", 5, {"a": i(5), "b": s("x")}),
    ("((a).is_null() or (a > 0))", True, {"a": i(5), "b": s("x")}),
    # compiled/tests.rs::regex_method_null_receiver
    ('s.matches("^[a-z]+$")', None, {"s": s(None)}),
    # compiled/tests.rs::catch_does_not_swallow_receiver_error
    ("(1 / z).catch(99)", Err("division by zero"), {"z": i(0)}),
]


@pytest.fixture(scope="module")
def outcomes(cxl_many):
    return cxl_many(CASES)


@pytest.mark.parametrize("n", range(len(CASES)), ids=[c[0] for c in CASES])
def test_expression(outcomes, n):
    verify(outcomes[n], CASES[n][1])


def test_now_is_a_datetime(cxl):
    # eval/tests.rs::test_eval_now_with_fixed_clock (Clinker's test clock is 2026-01-15)
    out = cxl("now")
    assert out.error is None and isinstance(out.value, datetime.datetime)


# ---- programs: lets, several emits, filters, trace, emit each -----------------------------
ROW = {"nums": ("array<int>", [1, 2, 3])}
GROUPS = "array<array<int>>"
EACH = "emit each it in nums {\n  emit val = it\n}"
NESTED = "emit each g in groups {\n  emit each it in g {\n    emit val = it\n  }\n}"

PROGRAMS = [
    # eval/tests.rs::test_eval_let_binding_scope
    ("let x = 10\nemit val = x + 1", {"val": 11}),
    # eval/tests.rs::test_eval_emit_output_map
    ("emit a = 1\nemit b = 2\nemit c = 3", {"a": 1, "b": 2, "c": 3}),
    # eval/tests.rs::test_eval_conversion_strict
    ('emit val = "abc".to_int()', Fails("field 'val': ")),
    # eval/tests.rs::test_log_level4_trace_basic / ::test_log_level4_trace_when_guard /
    # ::test_log_level4_trace_level_override / ::test_log_level4_guard_short_circuits
    ('trace "saw record"\nemit val = 1', {"val": 1}),
    ('trace if false "should not fire"\nemit val = 1', {"val": 1}),
    ('trace warn "alert message"\nemit val = 1', {"val": 1}),
    ('trace if false "never"\nemit val = 42', {"val": 42}),
    # eval/tests.rs::test_log_level4_multi_field_interpolation
    ("let msg = a + b + c\ntrace msg\nemit total = msg", {"total": 6},
     {"a": i(1), "b": i(2), "c": i(3)}),
    # eval/tests.rs::nested_set_does_not_mutate_receiver / ::nested_unset_does_not_mutate_receiver
    # (a nested path: CS001)
    ('emit before = doc\nemit after = doc.set("a.b", 9)', Lowered("CS001"),
     {"doc": ("map<map<int>>", {"a": {"b": 1}})}),
    ('emit before = doc\nemit after = doc.unset("a.b")', Lowered("CS001"),
     {"doc": ("map<map<int>>", {"a": {"b": 1, "c": 2}})}),
    # eval/tests.rs::emit_each_fans_out_one_per_element
    (EACH, [{"val": 1}, {"val": 2}, {"val": 3}], ROW),
    # eval/tests.rs::emit_each_null_source_emits_nothing
    (EACH, {}, {"nums": ("array<int>", None)}),
    # eval/tests.rs::emit_each_max_expansion_overflow_dlqs
    (EACH, Fails("max_expansion (limit 5)"), {"nums": ("array<int>", list(range(20)))}, 5),
    # eval/tests.rs::nested_emit_each_fans_out_within_fan_out
    (NESTED, [{"val": 1}, {"val": 2}, {"val": 3}], {"groups": (GROUPS, [[1, 2], [3]])}),
    # eval/tests.rs::nested_emit_each_outer_binding_visible_in_inner_body
    ("emit each g in groups {\n  emit each it in g {\n    emit pair = it\n  }\n}",
     [{"pair": 10}, {"pair": 20}], {"groups": (GROUPS, [[10, 20]])}),
    # eval/tests.rs::nested_emit_each_pre_block_emits_apply_to_every_leaf
    ("emit kept = 9\nemit each g in groups {\n  emit gid = 7\n  emit each it in g {\n"
     "    emit val = it\n  }\n}",
     [{"kept": 9, "gid": 7, "val": 1}, {"kept": 9, "gid": 7, "val": 2}],
     {"groups": (GROUPS, [[1, 2]])}),
    # eval/tests.rs::nested_emit_each_max_expansion_is_cumulative
    (NESTED, Fails("max_expansion (limit 5)"), {"groups": (GROUPS, [[1, 2], [3, 4], [5, 6]])}, 5),
    # eval/tests.rs::nested_emit_each_inner_null_source_emits_no_leaf_for_that_group
    (NESTED, [{"val": 1}, {"val": 2}], {"groups": (GROUPS, [[1], None, [2]])}),
    # eval/tests.rs::nested_emit_each_same_binding_name_restores_outer_after_inner
    ("emit each it in groups {\n  emit each it in it {\n    emit leaf = it\n  }\n}",
     [{"leaf": 1}, {"leaf": 2}], {"groups": (GROUPS, [[1, 2]])}),
    # eval/tests.rs::explode_outer_fans_out_one_per_element_when_non_empty
    ("emit each it in nums outer {\n  emit val = it\n}", [{"val": 1}, {"val": 2}, {"val": 3}],
     ROW),
    # eval/tests.rs::explode_outer_null_source_preserves_trigger_row_with_null_binding
    ("emit each it in nums outer {\n  emit val = it\n}", [{"val": None}],
     {"nums": ("array<int>", None)}),
    # eval/tests.rs::explode_outer_empty_array_preserves_trigger_row_with_null_binding
    ("emit each it in nums outer {\n  emit val = it\n}", [{"val": None}],
     {"nums": ("array<int>", [])}),
    # eval/tests.rs::explode_outer_trigger_row_carries_pre_block_emits
    ("emit kept = 7\nemit each it in nums outer {\n  emit val = it\n}",
     [{"kept": 7, "val": None}], {"nums": ("array<int>", None)}),
    # eval/tests.rs::explode_outer_max_expansion_governs_non_empty_fan_out
    ("emit each it in nums outer {\n  emit val = it\n}", Fails("max_expansion (limit 5)"),
     {"nums": ("array<int>", list(range(20)))}, 5),
    # eval/tests.rs::nested_explode_outer_preserves_trigger_row_for_empty_inner_group
    ("emit each g in groups {\n  emit each it in g outer {\n    emit val = it\n  }\n}",
     [{"val": 1}, {"val": None}], {"groups": (GROUPS, [[1], []])}),
    # eval/tests.rs::nested_outer_outer_null_top_source_preserves_single_trigger_row
    ("emit each g in groups outer {\n  emit each it in g outer {\n    emit val = it\n  }\n}",
     [{"val": None}], {"groups": (GROUPS, None)}),
    # compiled/tests.rs::emit_targets / ::pipeline_source_emit_values /
    # ::pipeline_emit_before_error_is_observable: `$record` / `$pipeline` / `$source` emits
    # are refused (CS001, scoped variables)
    ("emit out = 1", {"out": 1}),
    ("emit $record.tag = 7", Lowered("CS001")),
    ("emit $pipeline.seen = 1", Lowered("CS001")),
    ("emit $source.seen = 1", Lowered("CS001")),
    ("emit $pipeline.count = a * 2", Lowered("CS001"), {"a": i(21)}),
    ("emit $pipeline.seen = a\nemit out = 1 / z", Lowered("CS001"), {"a": i(9), "z": i(0)}),
    # compiled/tests.rs::filter_skip
    ("filter a > 10\nemit out = a", SKIP, {"a": i(5)}),
    ("filter a > b\nemit out = a", SKIP, {"a": i(None), "b": i(1)}),
    ("filter a > 0\nemit out = a", {"out": 5}, {"a": i(5)}),
    # compiled/tests.rs::let_binding_and_env_shadow
    ("let a = 100\nemit out = a", {"out": 100}, {"a": i(1)}),
    # compiled/tests.rs::error_span_fidelity_division_by_zero (triggering field `out`)
    ("emit out = 1 / z", Err("field 'out': division by zero"), {"z": i(0)}),
    # compiled/tests.rs::multi_statement_ordering
    ('let x = a + 1\nemit p = x\nemit q = x * 2\ntrace "hi"\nx + 1', {"p": 5, "q": 10},
     {"a": i(4)}),
    # compiled/tests.rs::closure_body_error_propagates
    ("emit out = nums.map(it => 1 / it)", Err("field 'out': division by zero"),
     {"nums": ("array<int>", [1, 0])}),
    # compiled/tests.rs::emit_each_fanout_and_seed
    ('emit tag = "t"\nemit each n in nums {\n  emit val = n + 1\n}',
     [{"tag": "t", "val": 11}, {"tag": "t", "val": 21}, {"tag": "t", "val": 31}], NUMS),
    # compiled/tests.rs::emit_each_null_source
    ("emit base = 1\nemit each n in nums {\n  emit val = n\n}", {"base": 1},
     {"nums": ("array<int>", None)}),
    # compiled/tests.rs::emit_each_empty_array
    ("emit each n in nums {\n  emit val = n\n}", {}, {"nums": ("array<int>", [])}),
    # compiled/tests.rs::emit_each_ceiling_boundary
    ("emit each n in nums {\n  emit val = n\n}", Fails("max_expansion (limit 2)"), ROW, 2),
    # compiled/tests.rs::emit_each_body_trace_is_noop
    ('emit each n in nums {\n  trace if (1 / z) == 0 "would error: " + (1 / z).to_string()\n'
     "  emit val = n\n}", [{"val": 1}, {"val": 2}],
     {"nums": ("array<int>", [1, 2]), "z": i(0)}),
    # compiled/tests.rs::example_pipeline_transform_bodies
    ('emit is_active = status == "active"', {"is_active": True}, {"status": s("active")}),
    ('emit tier = if lifetime_value.to_int() > 10000 then "gold" else "standard"',
     {"tier": "gold"}, {"lifetime_value": s("25000")}),
    ('let parsed = invoice_date.to_date("%Y-%m-%d")\nemit fiscal_year = if parsed.month() < 4 '
     "then parsed.year() else parsed.year() + 1", {"fiscal_year": 2027},
     {"invoice_date": s("2026-05-01")}),
    ('filter priority == "high"\nemit p = priority', {"p": "high"}, {"priority": s("high")}),
    ("emit address_upper = shipping_address.upper()\nemit uuid_prefix = "
     'ticket_uuid.substring(0, 8)\nemit tagged_comment = priority.upper().concat(": ", comment)'
     "\nemit comment_length = comment.length()",
     {"address_upper": "12 MAIN ST", "uuid_prefix": "abcdef01",
      "tagged_comment": "HIGH: please expedite", "comment_length": 15},
     {"shipping_address": s("12 main st"), "ticket_uuid": s("abcdef0123456789"),
      "priority": s("high"), "comment": s("please expedite")}),
    ('emit order_ref = "ORD-" + order_id.to_string().pad_left(8, "0")\n'
     "emit line_total = quantity * unit_price",
     {"order_ref": "ORD-00000042", "line_total": 29.97},
     {"order_id": i(42), "quantity": i(3), "unit_price": f(9.99)}),
    ('emit _route = if priority_level == "urgent" or priority_level == "high" then '
     '"priority_report" else "fulfilled_orders"', {"_route": "priority_report"},
     {"priority_level": s("urgent")}),
]


@pytest.fixture(scope="module")
def program_outcomes(spark):
    return evaluate_programs(spark, [(p[0], p[2] if len(p) > 2 else {}, *p[3:])
                                     for p in PROGRAMS])


@pytest.mark.parametrize("n", range(len(PROGRAMS)), ids=[p[0] for p in PROGRAMS])
def test_program(program_outcomes, n):
    verify(program_outcomes[n], PROGRAMS[n][1])


# ---- analytic windows: one partition per case ---------------------------------------------
def flags(*values):
    return [{"flag": v} for v in values]


T_, F_, N_ = True, False, None


def _kleene_or(x, y):
    return True if True in (x, y) else (False if (x, y) == (False, False) else None)


def _kleene_and(x, y):
    return False if False in (x, y) else (True if (x, y) == (True, True) else None)


PAIRS = [(T_, T_), (T_, F_), (F_, T_), (F_, F_), (T_, N_), (N_, T_), (F_, N_), (N_, F_),
         (N_, N_)]

# (expr, rows, expected value on the current row (None: every row), current row)
FOLDS = [
    # eval/tests.rs::any_every::any_short_circuits_on_true
    ("$window.any(flag)", flags(T_, F_, F_), True),
    ("$window.any(flag)", flags(T_, N_, F_), True),
    # eval/tests.rs::any_every::any_every_false_returns_false
    ("$window.any(flag)", flags(F_, F_, F_), False),
    # eval/tests.rs::any_every::any_null_with_no_true_returns_null
    ("$window.any(flag)", flags(N_, F_, F_), None),
    ("$window.any(flag)", flags(F_, N_, F_), None),
    # eval/tests.rs::any_every::every_short_circuits_on_false
    ("$window.every(flag)", flags(T_, F_, T_), False),
    ("$window.every(flag)", flags(F_, N_, T_), False),
    # eval/tests.rs::any_every::every_all_true_returns_true
    ("$window.every(flag)", flags(T_, T_, T_), True),
    # eval/tests.rs::any_every::every_null_with_no_false_returns_null
    ("$window.every(flag)", flags(N_, T_, T_), None),
    ("$window.every(flag)", flags(T_, N_, T_), None),
    # eval/tests.rs::any_every::agrees_with_iterated_or_and_two_rows
    *[("$window.any(flag)", flags(x, y), _kleene_or(x, y)) for x, y in PAIRS],
    *[("$window.every(flag)", flags(x, y), _kleene_and(x, y)) for x, y in PAIRS],
    # eval/tests.rs::any_every::exists_aliases_any
    ("$window.exists(flag)", flags(F_, T_, F_), True),
    ("$window.exists(flag)", flags(F_, F_, F_), False),
    # eval/tests.rs::any_every::not_exists_inverts_predicate
    ("$window.not_exists(flag)", flags(F_, F_, F_), True),
    ("$window.not_exists(flag)", flags(F_, T_, F_), False),
    # compiled/tests.rs::window_predicate_folds
    ("$window.any(flag)", flags(T_, N_, F_), True),
    ("$window.any(flag)", flags(F_, N_, F_), None),
    ("$window.any(flag)", flags(F_, F_), False),
    ("$window.every(flag)", flags(T_, F_, T_), False),
    ("$window.every(flag)", flags(T_, T_), True),
    ("$window.exists(flag)", flags(F_, T_), True),
    ("$window.not_exists(flag)", flags(F_, F_), True),
]


@pytest.mark.parametrize("n", range(len(FOLDS)), ids=[f"{c[0]}-{n}" for n, c in enumerate(FOLDS)])
def test_window_fold(spark, n):
    expr, rows, want = FOLDS[n]
    outs = evaluate_window(spark, expr, {"flag": "bool"}, rows)
    for out in outs:  # a whole-partition fold: the same on every row
        check(out, want)


def keyed(keys, values=None):
    values = values or [0] * len(keys)
    return [{"k": k, "v": v} for k, v in zip(keys, values)]


# (expr, rows, sort, expected per row)
RANKS = [
    # eval/tests.rs::ranking_and_value::row_number_is_1_indexed
    ("$window.row_number()", keyed([1, 1, 2, 3], [10, 20, 30, 40]), [], [1, 2, 3, 4]),
    # eval/tests.rs::ranking_and_value::rank_ties_share_value_then_gap
    ("$window.rank()", keyed([1, 1, 2, 2, 2, 5]), [("k", "asc")], [1, 1, 3, 3, 3, 6]),
    # eval/tests.rs::ranking_and_value::dense_rank_no_gaps
    ("$window.dense_rank()", keyed([1, 1, 2, 2, 2, 5]), [("k", "asc")], [1, 1, 2, 2, 2, 3]),
    # eval/tests.rs::ranking_and_value::first_value_last_value_project_field
    ("$window.first_value(v)", keyed([1, 2, 3], [100, 200, 300]), [], [100] * 3),
    ("$window.last_value(v)", keyed([1, 2, 3], [100, 200, 300]), [], [300] * 3),
    # compiled/tests.rs::window_bare_calls (partition [10, 20, 30]; current = 1 for row_number)
    ("$window.count()", keyed([1, 2, 3], [10, 20, 30]), [], [3] * 3),
    ("$window.sum(v)", keyed([1, 2, 3], [10, 20, 30]), [], [60.0] * 3),
    ("$window.avg(v)", keyed([1, 2, 3], [10, 20, 30]), [], [20.0] * 3),
    # (the test's VecWindow gives min/max as f64; Clinker's window_context.rs keeps the
    # value, an Int here; sum/avg/cumulative_sum are Float in both)
    ("$window.min(v)", keyed([1, 2, 3], [10, 20, 30]), [], [10] * 3),
    ("$window.max(v)", keyed([1, 2, 3], [10, 20, 30]), [], [30] * 3),
    ("$window.cumulative_sum(v)", keyed([1, 2, 3], [10, 20, 30]), [], [10.0, 30.0, 60.0]),
    ("$window.rank()", keyed([1, 2, 3], [10, 20, 30]), [], [1] * 3),
    ("$window.dense_rank()", keyed([1, 2, 3], [10, 20, 30]), [], [1] * 3),
    ("$window.row_number()", keyed([1, 2, 3], [10, 20, 30]), [], [1, 2, 3]),
    ("$window.collect(v)", keyed([1, 2, 3], [10, 20, 30]), [], [[10, 20, 30]] * 3),
    ("$window.first_value(v)", keyed([1, 2, 3], [10, 20, 30]), [], [10] * 3),
    ("$window.last_value(v)", keyed([1, 2, 3], [10, 20, 30]), [], [30] * 3),
    # compiled/tests.rs::window_chain_field (price [100, 200, 300])
    ("$window.first().v", keyed([1, 2, 3], [100, 200, 300]), [], [100] * 3),
    ("$window.last().v", keyed([1, 2, 3], [100, 200, 300]), [], [300] * 3),
    ("$window.lag(1).v", keyed([1, 2, 3], [100, 200, 300]), [], [None, 100, 200]),
    ("$window.lead(1).v", keyed([1, 2, 3], [100, 200, 300]), [], [200, 300, None]),
    ("$window.lag(5).v", keyed([1, 2, 3], [100, 200, 300]), [], [None] * 3),
    ("$window.lead(5).v", keyed([1, 2, 3], [100, 200, 300]), [], [None] * 3),
]


@pytest.mark.parametrize("n", range(len(RANKS)), ids=[c[0] for c in RANKS])
def test_window_value(spark, n):
    expr, rows, sort, want = RANKS[n]
    outs = evaluate_window(spark, expr, {"k": "int", "v": "int"}, rows, sort)
    assert len(outs) == len(want)
    for out, w in zip(outs, want):
        check(out, w)


def test_window_needs_an_analytic_window(cxl):
    # compiled/tests.rs::window_missing_context_errors: Clinker fails each row at run time
    # (type mismatch, no window context); clinker-sql refuses the program (E200)
    from clinker_sql.cxl.errors import CxlError

    with pytest.raises(CxlError) as info:
        cxl("$window.count()")
    assert info.value.code == "E200"
