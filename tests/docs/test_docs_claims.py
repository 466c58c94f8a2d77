"""Each docs/<paper>.md states the claims exactly as its committed claims.md does (issue 54)."""
import pytest

from support import PROJECT

BEGIN = "<!-- claims: the block below is claims.md's \"State of the claims\", word for word (tests/docs/test_docs_claims.py) -->\n"
END = "<!-- /claims -->\n"


@pytest.mark.parametrize("paper", ["martins2016", "peters2019", "correia2019"])
def test_docs_state_of_the_claims_is_the_reports(paper):
    report = (PROJECT / "reports" / paper / "cpu" / "claims.md").read_text(encoding="utf-8")
    state = report.split("## State of the claims\n\n", 1)[1]
    doc = (PROJECT / "docs" / f"{paper}.md").read_text(encoding="utf-8")
    assert doc.count(BEGIN) == 1 and doc.split(BEGIN, 1)[1].split(END, 1)[0] == state
    assert state.count("\n- **") + state.startswith("- **") == int(state.split(" claims:")[0])   # one line a claim
