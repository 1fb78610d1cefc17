"""What AttentionMatrix's reading says of the head before its pair (issue 40): the kind of head
the model-level scores name, where the example carries them (an induction head by the model's
measure, on any sentence), then the habit this sentence's rows show."""

from __future__ import annotations

import attention_core as ac


class AttentionMatrixStory:
    """The head's lead in AttentionMatrix's reading (a mixin of the scene)."""

    def head_habit(self, s) -> str:
        """What the model-level scores the example carries name the head ("Measured across the
        model …, this is an induction head."), then the head's habit in this sentence before an
        asked pair that is not it ("On average, half or more of this head's weight goes to the
        first token (attention sink)."); "" without either: the core's reading (``read_head``),
        its words the reading's own (head_kinds)."""
        from attention_core.readings.head_kinds import one_head, words

        W, tokens = self.head.weights, self.example.tokens
        if W.shape[0] != W.shape[1]:
            return ""
        lang = "zh" if self.lang == "zh" else "en"
        r = ac.read_head(W, tokens, ac.example_head_scores(self.example, self.h))
        lead = ""
        if r.score is not None:  # named by the model's measure: said first, then the rows
            lead = self.say("story_head_model", name=one_head(r.pattern, lang))
            r = r.here
        if s.kind != "asked" or s.habit is not None or not r.habitual:
            return lead
        phrase = words("phrase", lang)[r.pattern]
        token = self.q_tokens[r.key] if r.key is not None else ""
        return lead + self.say("story_head_habit", what=phrase.format(token=token))
