"""The news servers sharing a store send each other survives the bus, and a
server of the release before (no forming chat, no rematch across servers)
is still understood."""

from __future__ import annotations

from fivetowers.tables.sharing import Again, Forming, Said, news_json, news_of


def test_new_news_goes_and_comes_back_the_same() -> None:
    for news in (Said("ann", "hi", "ABCDE"), Again("SHA256:bob", "bob"),
                 Forming("ABCDE", "Duel", "fivetowers", (("variant", "base"),), False, 1.0,
                         (("ann", None, "SHA256:ann"), ("bob", None, "SHA256:bob")),
                         rematch=True, pending=(1,))):
        assert news_of(news_json(news)) == news


def test_the_release_before_s_chat_and_forming_tables_are_understood() -> None:
    assert news_of({"said": ["ann", "hi"]}) == Said("ann", "hi")
    told = news_of({"forming": ["ABCDE", "Duel", "fivetowers", [["variant", "base"]],
                                False, 1.0, [["ann", None, "SHA256:ann"]], True]})
    assert isinstance(told, Forming) and not told.rematch and told.pending == ()
    assert news_of({"again": ["only the identity"]}) is None  # malformed: ignored


def test_the_release_before_understands_chat_and_forming_tables_that_are_no_rematch() -> None:
    """It unpacks exactly [name, text] and a forming table's 8 fields."""
    plain = Forming("ABCDE", "Duel", "fivetowers", (("variant", "base"),), False, 1.0,
                    (("ann", None, "SHA256:ann"),), True)
    assert news_json(Said("ann", "hi")) == {"said": ["ann", "hi"]}
    assert len(news_json(plain)["forming"]) == 8 and news_of(news_json(plain)) == plain
