"""The check of LOST cards (spec section 4, rulebook rules I-III)."""

from __future__ import annotations

from pathcheck.tracer.check import CardOutcome, LostCard, score_lost_cards


def test_spec_example_lost_at_five() -> None:
    cards = [LostCard("Bob", 3), LostCard("Cy", 6), LostCard("Dee", 6), LostCard("Eve", 7)]
    result = score_lost_cards(5, cards, None)
    assert dict(result.points) == {"Bob": 0, "Cy": 1, "Dee": 1, "Eve": 0}
    assert result.scoring_tile == 6
    kinds = {o.player: o.kind for o in result.outcomes}
    assert kinds == {"Bob": CardOutcome.EARLY, "Cy": CardOutcome.SCORED,
                     "Dee": CardOutcome.SCORED, "Eve": CardOutcome.TOO_LATE}


def test_spec_example_never_lost() -> None:
    result = score_lost_cards(None, [LostCard("Bob", 4)], ["Ann", "Bob", "Cy"])
    assert dict(result.points) == {"Ann": 1, "Bob": 0, "Cy": 1}
    assert result.outcomes[1].kind is CardOutcome.EARLY


def test_card_on_the_lost_tile_itself_scores() -> None:
    result = score_lost_cards(4, [LostCard("Ann", 4), LostCard("Bob", 5)], ["Ann", "Bob", "Cy"])
    assert dict(result.points) == {"Ann": 1, "Bob": 0, "Cy": 0}
    assert result.outcomes[2].kind is CardOutcome.STAYED


def test_lost_with_no_card_after_it_scores_nobody() -> None:
    result = score_lost_cards(6, [LostCard("Ann", 2)], ["Ann", "Bob"])
    assert dict(result.points) == {"Ann": 0, "Bob": 0}
    assert result.scoring_tile is None


def test_explanations_name_rule_and_tile() -> None:
    result = score_lost_cards(5, [LostCard("Bob", 3)], None)
    text = result.outcomes[0].explain(5)
    assert "Bob" in text and "tile 3" in text and "fails" in text
    assert result.outcomes[0].kind.rule is not None
    assert result.outcomes[0].kind.rule.id == "dungeon/check-I"
