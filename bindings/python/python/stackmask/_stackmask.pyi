"""Type stubs of the Rust extension ``stackmask._stackmask`` (re-exported by ``stackmask``)."""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Union

class StackmaskError(ValueError):
    """An error reported by the library (grammar, tokenizer, rejected token, rollback,
    resource limit); the message is the Rust error's."""

class Tokenizer:
    """A HuggingFace tokenizer: the exact bytes of every token id, and the EOS ids."""

    @staticmethod
    def from_file(path: Union[str, PathLike[str]]) -> Tokenizer:
        """Load a ``tokenizer.json`` file, plain or gzipped."""
    @staticmethod
    def from_json(json: Union[str, bytes]) -> Tokenizer:
        """Load a tokenizer from the content of a ``tokenizer.json`` (plain or gzipped)."""
    @staticmethod
    def from_transformers(tokenizer: Any) -> Tokenizer:
        """Load the tokenizer of a ``transformers`` fast tokenizer (its
        ``backend_tokenizer``); its ``eos_token_id``, when set, joins the EOS ids."""
    @staticmethod
    def embedded_default() -> Tokenizer:
        """The Qwen3 tokenizer embedded in the library (151,669 ids)."""
    def with_eos_token_ids(self, ids: Sequence[int]) -> Tokenizer:
        """A copy whose end-of-sequence ids are ``ids``."""
    @property
    def vocab_size(self) -> int:
        """Number of token ids (text and special)."""
    @property
    def eos_token_ids(self) -> List[int]:
        """The end-of-sequence token ids, increasing."""
    def token_bytes(self, id: int) -> Optional[bytes]:
        """The bytes token ``id`` appends to the text; None for a special token."""
    def encode(self, text: str) -> List[int]:
        """The token ids of ``text`` (no BOS; special-token names encoded as text)."""

class Grammar:
    """A grammar (BNF over regular terminals). Immutable."""

    @staticmethod
    def from_lark(text: str) -> Grammar:
        """Compile Lark grammar text (start rule ``start``)."""
    @staticmethod
    def from_regex(pattern: str) -> Grammar:
        """The grammar of the whole texts a regular expression matches (Rust ``regex``
        syntax, no anchors or look-around)."""
    @staticmethod
    def from_json_schema(schema: Union[str, Dict[str, Any], bool], *, whitespace: str = "flexible") -> Grammar:
        """The grammar of the JSON texts valid for a schema (text, or an object passed
        through ``json.dumps``); ``whitespace`` is ``"flexible"`` or ``"compact"``;
        ``oneOf`` is exact."""

class CompiledGrammar:
    """A grammar compiled for one tokenizer (lexer, LR tables, stack classifier).
    Immutable and thread-safe: share one between all matchers."""

    def __init__(self, grammar: Grammar, tokenizer: Tokenizer, *, eager: bool = False) -> None:
        """Compile ``grammar`` for ``tokenizer``; ``eager`` builds the classifier up front."""
    @property
    def vocab_size(self) -> int:
        """Number of token ids of the tokenizer."""

class Matcher:
    """One sequence's constraint state."""

    def __init__(self, compiled: CompiledGrammar) -> None:
        """A matcher at the start of the text."""
    def reset(self) -> None:
        """Back to the start of the text."""
    def consume_token(self, token: int) -> None:
        """Consume one token; StackmaskError (matcher unchanged) if it is not allowed."""
    def consume_tokens(self, tokens: Sequence[int]) -> None:
        """Consume tokens in order, all or none."""
    def consume_bytes(self, data: bytes) -> None:
        """Consume raw bytes as one step."""
    def rollback(self, num_tokens: int = 1) -> None:
        """Undo the last ``num_tokens`` steps."""
    @property
    def num_steps(self) -> int:
        """Number of steps that can be rolled back."""
    def is_accepting(self) -> bool:
        """Whether the text so far is complete (EOS would be allowed)."""
    def is_terminated(self) -> bool:
        """Whether an EOS token has been consumed."""
    def compute_ff_bytes(self) -> bytes:
        """Bytes every continuation starts with."""
    def compute_ff_tokens(self) -> List[int]:
        """Tokens that can be consumed without sampling."""
    @property
    def vocab_size(self) -> int:
        """Number of token ids of the tokenizer."""
    def fill_next_token_bitmask(self, bitmask: Any, index: int = 0) -> None:
        """Write the allowed next tokens into row ``index`` of an int32 bitmask
        (``[batch, words]`` or ``[words]``, numpy or torch CPU)."""
    def fill_reference_bitmask(self, bitmask: Any, index: int = 0) -> None:
        """As ``fill_next_token_bitmask``, with the slow token-by-token oracle."""

def fill_next_token_bitmasks(
    matchers: Sequence[Matcher], bitmask: Any, indices: Optional[Sequence[int]] = None
) -> None:
    """Fill row ``indices[i]`` (default ``i``) with ``matchers[i]``'s mask, in parallel
    and without the GIL."""
