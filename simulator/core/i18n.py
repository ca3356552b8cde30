"""Narrating the trace in another language, from gettext catalogues.

Every trace event keeps the **template** it was written from (a declared transition's ``say``, or the
text given to :func:`simulator.core.log.log`) and the values of its fields. The template is the
catalogue's msgid; the translation is formatted with the same values, so the rule citations, the ids
and the numbers are the game's own. A few values are words (``base``, ``showdown``, ``combat``): they are
translated too, under the message context ``value``. A translation may ask for a **form** of a value,
``{dest:to}``: the entry ``value:to`` / ``base`` ("vers sa base") if there is one, else the pattern
``value:to`` / ``*`` ("vers {}") around the value ("vers North"). So grammar stays in the catalogue.

Catalogues live in ``simulator/locale/LANG/LC_MESSAGES/riftsim.po`` (and the compiled ``.mo``, both
committed, so an installed riftsim needs nothing at run time). A new language is one more catalogue:

    pybabel extract -F babel.cfg -o simulator/locale/riftsim.pot .
    pybabel init -i simulator/locale/riftsim.pot -d simulator/locale -D riftsim -l de
    (translate simulator/locale/de/LC_MESSAGES/riftsim.po)
    pybabel compile -d simulator/locale -D riftsim

English is the source language: ``narrate(e, "en")`` is the event's own text.

>>> from simulator.core.model import Event
>>> e = Event(2, "A passes focus", "A", template="{player} passes focus", values=(("player", "A"),))
>>> narrate(e, "fr")
'A passe la focalisation'
>>> narrate(e, "en")
'A passes focus'
"""
from __future__ import annotations

import ast
import gettext
import string
from functools import lru_cache
from pathlib import Path

DOMAIN = "riftsim"
LOCALEDIR = Path(__file__).resolve().parents[1] / "locale"
#: values that are words of the trace, not names: translated under the context "value"
VALUE_WORDS = ("base", "showdown", "combat", "attacker", "defender", "exhausted", "readied", "hand", "trash", "deck")
#: forms a translation may ask for with {field:FORM} (context value:FORM; "*" is the pattern for any value)
VALUE_FORMS = (("a", "showdown"), ("a", "combat"), ("at", "base"), ("at", "*"), ("to", "base"), ("to", "*"))


def languages() -> tuple[str, ...]:
    """English, then every language with a compiled catalogue."""
    found = sorted(p.parent.parent.name for p in LOCALEDIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return ("en", *found)


@lru_cache(maxsize=None)
def catalogue(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    try:
        return gettext.translation(DOMAIN, str(LOCALEDIR), languages=[lang])
    except OSError:
        raise ValueError(f"no catalogue for language {lang!r} (languages: {', '.join(languages())})") from None


def has(lang: str, msgid: str, context: str | None = None) -> bool:
    """Whether the catalogue translates ``msgid`` (English has everything)."""
    if lang == "en":
        return True
    cat = catalogue(lang)
    key = f"{context}\x04{msgid}" if context else msgid
    return key in getattr(cat, "_catalog", {})


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.cat = catalogue(lang)
        self.lang = lang

    def get_value(self, key, args, kwargs):
        return kwargs.get(key, "{" + str(key) + "}") if isinstance(key, str) else super().get_value(key, args, kwargs)

    def format_field(self, value, spec: str) -> str:
        text = "" if value is None else str(value)
        word = self.cat.pgettext("value", text) if has(self.lang, text, "value") else text
        if spec and not spec[0].isdigit() and spec not in ("s", "d"):        # a form: {dest:to}, {kind:a}
            if has(self.lang, text, f"value:{spec}"):
                return self.cat.pgettext(f"value:{spec}", text)
            if has(self.lang, "*", f"value:{spec}"):                          # the form of any value: "à {}"
                return self.cat.pgettext(f"value:{spec}", "*").replace("{}", word)
            return word
        return format(value, spec) if spec else word


def narrate(e, lang: str = "en") -> str:
    """The event's sentence in ``lang``; its English text when the catalogue lacks the template."""
    if lang == "en" or not e.template:
        return e.event
    cat = catalogue(lang)
    if not has(lang, e.template):
        return e.event
    values = dict(e.values)
    if "reason" in values and has(lang, str(values["reason"])):      # a refusal's reason, when translated
        values["reason"] = cat.gettext(str(values["reason"]))
    return _Formatter(lang).vformat(cat.gettext(e.template), (), values)


def event_json(e, lang: str = "en") -> dict:
    """``e.as_dict()`` with its text narrated in ``lang``."""
    d = e.as_dict()
    if lang != "en":
        d["event"] = narrate(e, lang)
    return d


def value_word(word: str, lang: str = "en") -> str:
    """A value word (:data:`VALUE_WORDS`: ``showdown``, ``combat``...) in ``lang``; other values unchanged.

    >>> value_word("showdown", "fr"), value_word("North", "fr")
    ('confrontation', 'North')
    """
    return catalogue(lang).pgettext("value", word) if lang != "en" and has(lang, word, "value") else word


#: the message context of a rule's title (``statecharts.titles.TITLES``)
TITLE = "rule title"


def rule_title(title: str, lang: str = "en") -> str:
    """A rule's title as :func:`statecharts.titles.title` gives it (``ID: text``), its text in ``lang``.

    >>> rule_title("144: moving a unit between locations", "fr")
    '144: déplacer une unité d’un emplacement à un autre'
    """
    rule, sep, text = title.partition(": ")
    if lang == "en" or not sep or not has(lang, text, TITLE):
        return title
    return f"{rule}: {catalogue(lang).pgettext(TITLE, text)}"


#: the message context of a declared machine's title and of its states' descriptions (what the diagrams draw)
STATECHART = "statechart"


def diagram_words(lang: str = "en"):
    """The translation hook of the statechart diagrams: a text -> the text in ``lang``. A declared machine
    title or state description is looked up under the context :data:`STATECHART`, a diagram's own words
    (``N_``) without one; English, and a text the catalogue lacks, are returned unchanged.

    >>> words = diagram_words("fr")
    >>> words("no chain exists (309)"), words("Empty")
    ('aucune chaîne n’existe (309)', 'Empty')
    """
    if lang == "en":
        return str
    cat = catalogue(lang)

    def words(text: str) -> str:
        if has(lang, text, STATECHART):
            return cat.pgettext(STATECHART, text)
        return cat.gettext(text) if has(lang, text) else text
    return words


def gettext_for(lang: str):
    """``_`` for the command line's own sentences (headers, results)."""
    return catalogue(lang).gettext


# -- extraction: the templates where they are declared -------------------------------------------------

def scan(source: str, filename: str = "<source>"):
    """``(messages, problems)`` of one Python file. A message is ``(line, context, msgid)``: every
    ``say=`` of a declared transition ``T(...)``, every template given to ``log(g, TEMPLATE, ...)`` (both
    branches of a conditional one), every ``N_("...")`` and ``_("...")``, and the ``VALUE_WORDS`` (context
    ``value``) and ``VALUE_FORMS`` (context ``value:FORM``). A problem is ``(line, why)``: a ``log()`` whose template is an f-string or built by ``+``
    or ``%`` cannot be translated.

    >>> scan('log(g, "{unit} is killed", "340", unit=u.id)\\nlog(g, f"{u.id} dies")')
    ([(1, None, '{unit} is killed')], [(2, 'log() is given an f-string or a text built at run time')])
    """
    tree = ast.parse(source, filename)
    messages: list[tuple[int, str | None, str]] = []
    problems: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            messages += _assigned(node)
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else \
                node.func.attr if isinstance(node.func, ast.Attribute) else None
            found = _CALLS.get(name or "")
            if found is not None:
                messages += found(node, problems)
    messages.sort()
    return messages, problems


def _const(node) -> list[str] | None:
    """The texts a node can only be: a string, or either branch of a conditional of them; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _const(node.body), _const(node.orelse)
        return a + b if a is not None and b is not None else None
    return None


def _assigned(node: ast.Assign | ast.AnnAssign) -> list[tuple[int, str | None, str]]:
    """The rules' titles (statecharts/titles.py's ``TITLES``), the ``VALUE_WORDS`` and the ``VALUE_FORMS``."""
    targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
    names = [t.id for t in targets if isinstance(t, ast.Name) and t.id in _ASSIGNED]
    return [m for name in dict.fromkeys(names) for m in _ASSIGNED[name](node)]


def _titles(node: ast.Assign | ast.AnnAssign) -> list[tuple[int, str | None, str]]:
    if not isinstance(node, ast.AnnAssign) or not isinstance(node.value, ast.Dict):
        return []
    return [(v.lineno, TITLE, v.value) for v in node.value.values
            if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def _value_words(node: ast.Assign | ast.AnnAssign) -> list[tuple[int, str | None, str]]:
    if not isinstance(node, ast.Assign):
        return []
    return [(elt.lineno, "value", str(elt.value)) for elt in getattr(node.value, "elts", [])
            if isinstance(elt, ast.Constant)]


def _value_forms(node: ast.Assign | ast.AnnAssign) -> list[tuple[int, str | None, str]]:
    if not isinstance(node, ast.Assign):
        return []
    out: list[tuple[int, str | None, str]] = []
    for elt in getattr(node.value, "elts", []):
        form, word = (str(getattr(e, "value", "")) for e in getattr(elt, "elts", ()))
        out.append((elt.lineno, f"value:{form}", word))
    return out


#: what a module-level name assigned holds to translate
_ASSIGNED = {"TITLES": _titles, "VALUE_WORDS": _value_words, "VALUE_FORMS": _value_forms}


def _say(node: ast.Call, problems: list) -> list[tuple[int, str | None, str]]:
    """A declared transition's ``say=``."""
    return [(kw.value.lineno, None, m) for kw in node.keywords if kw.arg == "say" for m in _const(kw.value) or () if m]


def _machine(node: ast.Call, problems: list) -> list[tuple[int, str | None, str]]:
    """A machine's title and its states' descriptions."""
    title = _const(node.args[1]) if len(node.args) >= 2 else None
    if not title:
        return []
    out: list[tuple[int, str | None, str]] = [(node.args[1].lineno, STATECHART, m) for m in title if m]
    return out + [x for kw in node.keywords if kw.arg == "state_docs" for x in _state_docs(kw.value)]


def _state_docs(value: ast.expr) -> list[tuple[int, str | None, str]]:
    """A machine's ``state_docs={...}``: each state's description."""
    if not isinstance(value, ast.Dict):
        return []
    return [(v.lineno, STATECHART, d) for v in value.values for d in _const(v) or () if d]


def _ruling(node: ast.Call, problems: list) -> list[tuple[int, str | None, str]]:
    """A ruling's title: its default."""
    default = _const(node.args[3]) if len(node.args) >= 4 else None
    return [(node.args[3].lineno, TITLE, m) for m in default or ()]


def _marked(node: ast.Call, problems: list) -> list[tuple[int, str | None, str]]:
    """``N_("...")`` and ``_("...")``."""
    return [(node.lineno, None, m) for m in (_const(node.args[0]) if node.args else None) or ()]


def _log(node: ast.Call, problems: list) -> list[tuple[int, str | None, str]]:
    """``log(g, TEMPLATE, ...)``: its template(s); one built at run time is a problem."""
    if not isinstance(node.func, ast.Name) or len(node.args) < 2:
        return []
    texts = _const(node.args[1])
    if texts is not None:
        return [(node.args[1].lineno, None, m) for m in texts]
    if isinstance(node.args[1], (ast.JoinedStr, ast.BinOp)) or (
            isinstance(node.args[1], ast.Call) and getattr(node.args[1].func, "attr", "") == "format"):
        problems.append((node.lineno, "log() is given an f-string or a text built at run time"))
    return []


#: what each call by that name holds to translate
_CALLS = {"T": _say, "Machine": _machine, "Ruling": _ruling, "N_": _marked, "_": _marked, "log": _log}


def source_files(root: Path) -> list[Path]:
    """The Python files whose trace sentences are catalogued: ``statecharts/`` and ``simulator/``."""
    return sorted(p for d in ("statecharts", "simulator") for p in (root / d).rglob("*.py"))


def extract_babel(fileobj, keywords, comment_tags, options):
    """Babel extraction method (babel.cfg): the messages of :func:`scan`."""
    messages, _ = scan(fileobj.read().decode("utf-8"))
    for line, context, msgid in messages:
        if context:
            yield line, "pgettext", (context, msgid), []
        else:
            yield line, "gettext", msgid, []
