"""Date and time builtins, including strftime formatting (cxl-spec §6.4)."""

from __future__ import annotations

import datetime as dt

import pytest

from .harness import check

T = {"t": ("datetime", "2024-03-15 14:30:45")}
TF = {"t": ("datetime", "2024-03-15 14:30:45.123456")}
T0 = {"t": ("datetime", "2024-03-15 09:05:07")}
NULL_D = {"x": ("date", None)}


def day(value):
    return {"x": ("date", value)}


CASES = [
    ("#2024-03-15#.year()", 2024),
    ("#2024-03-15#.month()", 3),
    ("#2024-03-15#.day()", 15),
    ("t.year()", 2024, T),
    ("t.day()", 15, T),
    ("t.hour()", 14, T),
    ("t.minute()", 30, T),
    ("t.second()", 45, T),
    ("t.second()", 45, TF),
    ("#2024-03-15#.hour()", None),  # Date receiver: null, not 0
    ("#2024-03-15#.minute()", None),
    ("#2024-03-15#.second()", None),
    ("x.year()", None, NULL_D),
    # add_days keeps the kind and the time of day
    ("#2024-01-15#.add_days(10)", dt.date(2024, 1, 25)),
    ("#2024-01-15#.add_days(-5)", dt.date(2024, 1, 10)),
    ("#2024-02-28#.add_days(1)", dt.date(2024, 2, 29)),
    ("#2024-12-31#.add_days(1)", dt.date(2025, 1, 1)),
    ("#2024-01-15#.add_days(null)", dt.date(2024, 1, 15)),
    ("#2024-01-15#.add_days(1.9)", dt.date(2024, 1, 16)),
    ("t.add_days(1)", dt.datetime(2024, 3, 16, 14, 30, 45), T),
    ("t.add_days(-15)", dt.datetime(2024, 2, 29, 14, 30, 45), T),
    ("x.add_days(1)", None, NULL_D),
    # add_months / add_years: Date only, day clamped to the month's end
    ("#2024-01-31#.add_months(1)", dt.date(2024, 2, 29)),
    ("#2024-02-29#.add_months(12)", dt.date(2025, 2, 28)),
    ("#2024-02-29#.add_months(1)", dt.date(2024, 3, 29)),
    ("#2024-03-15#.add_months(-2)", dt.date(2024, 1, 15)),
    ("#2024-03-31#.add_months(-1)", dt.date(2024, 2, 29)),
    ("#2024-02-29#.add_years(1)", dt.date(2025, 2, 28)),
    ("#2024-02-29#.add_years(4)", dt.date(2028, 2, 29)),
    ("#2024-03-15#.add_years(-24)", dt.date(2000, 3, 15)),
    ("t.add_months(1)", None, T),
    ("t.add_years(1)", None, T),
    # diff_days: receiver - other, both Dates
    ("#2024-03-15#.diff_days(#2024-03-01#)", 14),
    ("#2024-01-01#.diff_days(#2024-03-15#)", -74),
    ("#2024-03-15#.diff_days(null)", None),
    ("t.diff_days(#2024-03-01#)", None, T),
    ("#2024-03-15#.diff_months(#2024-01-15#)", None),
    ("#2024-03-15#.diff_years(#2020-01-15#)", None),
    # format_date: chrono strftime
    ("#2024-03-15#.format_date('%B %d, %Y')", "March 15, 2024"),
    ("#2024-03-15#.format_date('%Y/%m/%d')", "2024/03/15"),
    ("#2024-03-15#.format_date('%A %b')", "Friday Mar"),
    ("#2024-03-15#.format_date('%a %h')", "Fri Mar"),
    ("#2024-03-15#.format_date('%F')", "2024-03-15"),
    ("#2024-03-15#.format_date('%D')", "03/15/24"),
    ("#2024-03-15#.format_date('%y')", "24"),
    ("#2024-03-15#.format_date('%C')", "20"),
    ("#2024-03-15#.format_date('%j')", "075"),
    ("#2024-01-05#.format_date('%j')", "005"),
    ("#2024-03-05#.format_date('%e')", " 5"),
    ("#2024-03-05#.format_date('%-d/%-m')", "5/3"),
    ("#2024-03-05#.format_date('%_m')", " 3"),
    ("#2024-12-30#.format_date('%G-W%V')", "2025-W01"),
    ("#2024-03-15#.format_date('%G-W%V')", "2024-W11"),
    ("#2024-03-17#.format_date('%u %w')", "7 0"),
    ("#2024-03-18#.format_date('%u %w')", "1 1"),
    ("#2024-03-15#.format_date('%U %W')", "10 11"),
    ("#2024-01-01#.format_date('%U %W')", "00 01"),
    ("#2024-12-31#.format_date('%U %W')", "52 53"),
    ("#2024-08-15#.format_date('%q')", "3"),
    ("#2024-03-15#.format_date('100%% on %d')", "100% on 15"),
    ("#2024-03-15#.format_date('%v')", "15-Mar-2024"),
    ("#2024-03-15#.format_date('week')", "week"),
    ("#2024-03-15#.format_date(null)", None),
    ("x.format_date('%Y')", None, NULL_D),
    ("t.format_date('%Y-%m-%d %H:%M:%S')", "2024-03-15 14:30:45", T),
    ("t.format_date('%T')", "14:30:45", T),
    ("t.format_date('%I:%M %p')", "02:30 PM", T),
    ("t.format_date('%l%P')", " 2pm", T),
    ("t.format_date('%k')", " 9", T0),
    ("t.format_date('%H%M%S')", "090507", T0),
    ("t.format_date('%r')", "09:05:07 AM", T0),
    ("t.format_date('%R')", "09:05", T0),
    ("t.format_date('%c')", "Fri Mar 15 09:05:07 2024", T0),
    ("t.format_date('%S%.3f')", "45.123", TF),
    ("t.format_date('%.6f')", ".123456", TF),
    ("t.format_date('%.f')", ".123456", TF),
    ("t.format_date('%.f')", "", T),
    ("t.format_date('%f')", "123456000", TF),
    ("t.format_date('%3f')", "123", TF),
    ("t.format_date('%s')", "1710513045", T),
    ("t.format_date('%Y%n%t')", "2024\n\t", T),
]


@pytest.fixture(scope="module")
def outcomes(cxl_many):
    return cxl_many(CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[0] for c in CASES])
def test_date_builtin(outcomes, i):
    check(outcomes[i], CASES[i][1])


def test_now_is_a_datetime(cxl):
    out = cxl("now.year() >= 2024 and now.type_of() == 'datetime'")
    assert out.error is None and out.value is True, out.sql
