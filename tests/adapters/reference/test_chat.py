"""``LLM.chat``: conversations through the target's chat template, then ``generate``."""

from __future__ import annotations

import pytest

from minedraft import LLM, SamplingParams
from minedraft.cli import main
from minedraft.types import InvalidInputError

# A template a word-level tokenizer can read back: every message's content, then "w1" to open the reply.
TEMPLATE = "{% for m in messages %}{{ m['content'] }} {% endfor %}{% if add_generation_prompt %}w1{% endif %}"


@pytest.fixture(scope="module")
def llm(model_dir):
    llm = LLM(str(model_dir), str(model_dir), mode="sd", dtype="float64", num_speculative_tokens=3)
    llm.tokenizer.chat_template = TEMPLATE
    return llm


def test_chat_applies_the_template_and_generates_as_generate_does(llm):
    params = SamplingParams(temperature=0.0, max_new_tokens=8)
    conversation = [{"role": "system", "content": "w7"}, {"role": "user", "content": "w3 w5"}]
    [out] = llm.chat(conversation, params)
    assert out.prompt == "w7 w3 w5 w1" == llm.chat_prompt(conversation)
    assert out.prompt_token_ids == llm.encode("w7 w3 w5 w1")
    [plain] = llm.generate(["w7 w3 w5 w1"], params)
    assert out.token_ids == plain.token_ids and len(out.token_ids) == 8
    both = llm.chat([conversation, [{"role": "user", "content": "w11"}]], params)
    assert [o.prompt for o in both] == ["w7 w3 w5 w1", "w11 w1"] and both[0].token_ids == out.token_ids


@pytest.mark.parametrize("messages, field", [
    ([[{"role": "user", "content": "w3"}], [{"role": "user"}]], "messages[1][0]"),
    ([[{"role": "user", "content": "w3"}], []], "messages[1] must be a non-empty list"),
    ([["w3"]], "messages[0][0]"),
    ([], "at least one conversation"),
])
def test_chat_names_the_bad_message(llm, messages, field):
    with pytest.raises(InvalidInputError, match=field.replace("[", r"\[").replace("]", r"\]")):
        llm.chat(messages)


def test_chat_without_a_template_is_a_clear_error(model_dir, capsys):
    plain = LLM(str(model_dir), mode="ar", dtype="float64")
    with pytest.raises(InvalidInputError, match="chat template"):
        plain.chat([{"role": "user", "content": "w3"}])
    code = main(["generate", "--target", str(model_dir), "--mode", "ar", "--chat", "w3"])
    assert code == 2 and "chat template" in capsys.readouterr().err


def test_chat_does_not_double_a_bos_the_template_renders(model_dir):
    # Llama-3-style: the tokenizer adds BOS to any text and the template writes it too.
    from tokenizers.processors import TemplateProcessing
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    tok.bos_token = "w2"
    tok.backend_tokenizer.post_processor = TemplateProcessing(single="w2 $A", special_tokens=[("w2", 4)])
    tok.chat_template = "{{ bos_token }} " + TEMPLATE
    llm = LLM(str(model_dir), mode="ar", dtype="float64", tokenizer=tok)
    assert llm.encode("w3") == [4, 5]  # generate's text prompts get BOS, as vLLM's do
    [out] = llm.chat([{"role": "user", "content": "w3"}], SamplingParams(temperature=0.0, max_new_tokens=2))
    assert (out.prompt, out.prompt_token_ids) == ("w2 w3 w1", [4, 5, 3])


def test_stop_strings_match_the_text_the_output_shows(model_dir):
    # Special tokens are skipped in the output's text, so a stop string matches across them,
    # and the text is cut where the stop string completed, not at an earlier look-alike.
    from minedraft.types import RequestState

    llm = LLM(str(model_dir), mode="ar", dtype="float64")
    llm.tokenizer.add_special_tokens({"additional_special_tokens": ["w9"]})  # w9 now decodes to nothing
    ids = llm.encode("w5 w3 w9 w4")
    assert llm._config().detokenize(ids) == "w5 w3 w4"  # the scheduler sees what the user sees
    req = RequestState(prompt_ids=[1], params=SamplingParams(stop=["w3 w4"]), output_ids=ids)
    req.stop_reason = "w3 w4"
    assert llm._output(req, None).text == "w5 "
    req.output_ids = llm.encode("w3 w4 w5 w3 w4")  # a look-alike earlier would have stopped it there:
    assert llm._output(req, None).text == "w3 w4 w5 "  # the cut is where the last token completed it
