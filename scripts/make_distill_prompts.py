"""Makes the distillation training prompts shipped in ``adapters/reference/distill_data/``:
``categories.json`` (category name -> one-line description, in build order) and
``training_prompts.jsonl.gz`` (one ``{"category", "prompt"}`` object a line).

The prompts are built deterministically from the hand-written templates and slot fillers
below (docs/prompts.md): each category's generator gets ``random.Random(
"minedraft.prompts:<name>")`` (string seeds hash with sha512, so the interpreter's hash seed
does not matter), prompts are stripped, and a prompt two categories produce is kept in the
first. Pure Python.

    python scripts/make_distill_prompts.py           # rewrite the shipped files
    python scripts/make_distill_prompts.py --check   # exit 1 unless they hold what this makes

Edit a template, rerun, and commit the data with the script; tests check they agree
(tests/adapters/reference/test_distill_prompts.py).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent.parent / "adapters" / "reference" / "distill_data"
CATEGORIES_FILE = "categories.json"
PROMPTS_FILE = "training_prompts.jsonl.gz"

# Training categories, name -> one-line description, filled by the ``@_category`` generators
# below. The order is the build order, and a prompt two categories produce is kept in the first.
CATEGORIES: dict[str, str] = {}
_GENERATORS: dict[str, Callable[[random.Random], list[str]]] = {}


def _category(name: str, description: str):
    """Register a generator: ``gen(rng) -> prompts`` for one category."""

    def wrap(gen: Callable[[random.Random], list[str]]):
        CATEGORIES[name] = description
        _GENERATORS[name] = gen
        return gen

    return wrap


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _fill(templates: Sequence[str], fillers: Sequence) -> list[str]:
    """Every template with every filler. A string fills ``{x}``; a tuple fills ``{x}``, ``{y}``,
    ... in order; ``{X}`` is ``{x}`` with a capital first letter (for slots opening a sentence)."""
    out = []
    for t in templates:
        for f in fillers:
            if isinstance(f, tuple):
                kw = dict(zip("xyzw", f))
            else:
                kw = {"x": f}
            kw.update({k.upper(): _cap(v) for k, v in kw.items()})
            out.append(t.format(**kw))
    return out


def _fill_cross(templates: Sequence[str], xs: Sequence, ys: Sequence) -> list[str]:
    """``_fill`` over every pair (``{x}`` from ``xs``, ``{y}`` from ``ys``), in template, x, y
    order: e.g. topics x audience phrases, "Explain {x}{y}." with " for a 10-year-old"."""
    return _fill(templates, [(x, y) for x in xs for y in ys])


def _take(rng: random.Random, pool: Sequence[str], k: int) -> list[str]:
    """A deterministic sample of ``k`` distinct prompts from ``pool`` (all of it if smaller)."""
    pool = list(dict.fromkeys(pool))
    return pool if len(pool) <= k else rng.sample(pool, k)


def _decorate(rng: random.Random, prompts: Sequence[str], suffixes: Sequence[str], p: float) -> list[str]:
    """Append a constraint (e.g. 'Keep it short.') to a fraction ``p`` of the prompts."""
    out = []
    for s in prompts:
        if suffixes and rng.random() < p:
            suffix = rng.choice(suffixes)
            if suffix.split()[0].lower() not in s.lower():  # no "Explain ... Explain each step."
                s = f"{s} {suffix}"
        out.append(s)
    return out


_LOWERABLE = {"What", "How", "Why", "Who", "Where", "When", "Which", "Can", "Could", "Is", "Are", "Do",
              "Does", "Would", "Should", "Give", "Tell", "Explain", "Please", "Write", "List", "Help"}


def _lower_first(s: str) -> str:
    """Lower-case the first word when it is a common opener (never 'I' or a name)."""
    first = s.split(" ", 1)[0]
    return s[:1].lower() + s[1:] if first in _LOWERABLE else s


_GREETINGS = ["Hi! ", "Hello, ", "Hey, ", "Quick question: ", "Hi there. ", "Good morning! ",
              "Sorry if this is basic, but ", "Okay, so ", "I have a question. ", "Hey there! "]


def _greet(rng: random.Random, prompts: Sequence[str], p: float) -> list[str]:
    """Prefix a casual greeting to a fraction ``p`` of question-style prompts."""
    out = []
    for s in prompts:
        if rng.random() < p:
            g = rng.choice(_GREETINGS)
            s = g + (_lower_first(s) if g.endswith((", ", "but ", "so ")) else s)
        out.append(s)
    return out


_PERSONAS = [
    "I'm a nurse", "I'm a retired engineer", "I'm a high-school student", "I'm a single dad with two kids",
    "I work in marketing", "I've just moved here from abroad", "I'm 72 and not very good with technology",
    "I'm a first-year university student", "I run a small bakery", "English is my second language",
    "I'm a graduate student in biology", "I'm a professional chef", "I'm a primary school teacher",
    "I'm a software developer", "I'm a farmer", "I'm training to be an electrician", "I'm a stay-at-home mum",
    "I'm a journalist", "I'm preparing for a job interview", "I'm on a tight budget", "I'm a beginner",
    "I'm a lawyer with no science background", "I volunteer at a youth club", "I'm a history teacher",
]


def _persona(rng: random.Random, prompts: Sequence[str], p: float) -> list[str]:
    """Give a fraction ``p`` of the prompts some context about the asker, before or after."""
    out = []
    for s in prompts:
        if rng.random() < p:
            who = rng.choice(_PERSONAS)
            if rng.random() < 0.6:
                s = f"{who}. {_cap(s)}" if not s.startswith(("I ", "I'")) else f"{who}, and {s}"
            else:
                s = f"{s} For context, {who}." if s[-1:] in ".?!" else f"{s}. For context, {who}."
        out.append(s)
    return out


# ---------------------------------------------------------------------------------------
# Factual chat questions
# ---------------------------------------------------------------------------------------

_PHENOMENA = [
    "the tides", "rainbows", "earthquakes", "the northern lights", "thunder", "ocean currents",
    "the seasons on Earth", "hiccups", "inflation", "static electricity", "jet lag", "tsunamis",
    "volcanic eruptions", "leaves to change colour in autumn", "bread dough to rise", "goosebumps",
    "the phases of the Moon", "fog", "hurricanes", "acid rain", "brain freeze", "sunburn",
    "ice to float on water", "the red colour of Mars", "deserts to form", "monsoons",
    "a solar eclipse", "coral bleaching", "muscle cramps", "a stock market crash", "dew",
    "the smell after rain", "milk to go sour", "metal to rust", "a sonic boom", "hail",
    "the Earth's magnetic field", "allergies", "snoring", "déjà vu", "a rolling blackout",
    "traffic jams with no obvious cause", "bubbles in champagne", "a rip current", "seasickness",
    "avalanches", "the blue colour of the sky", "yawning to be contagious", "wildfires to spread",
]
_MECHANISMS = [
    "a refrigerator", "GPS", "a vaccine", "the stock market", "a microwave oven",
    "noise-cancelling headphones", "a nuclear reactor", "the human kidney", "photosynthesis",
    "a bicycle gear system", "public-key encryption", "a touchscreen", "an electric motor",
    "the immune system", "a credit score", "a jet engine", "Wi-Fi", "a heat pump", "a blockchain",
    "an elevator", "a camera lens", "3D printing", "a solar panel", "a pin tumbler lock", "human hearing",
    "a search engine", "a thermostat", "a hybrid car", "a hydroelectric dam", "an MRI scanner",
    "a sewing machine", "a compass", "a lithium-ion battery", "insulin", "a dishwasher", "a parachute",
    "a mechanical watch", "a pressure cooker", "an induction hob", "a hearing aid", "a QR code",
    "a wind turbine", "a submarine's ballast tank", "spam filtering", "a smoke detector",
    "a carburettor", "a fibre-optic cable", "a vending machine", "a pacemaker", "contactless payment",
]
_PEOPLE = [
    "Ada Lovelace", "Nikola Tesla", "Marie Curie", "Genghis Khan", "Frida Kahlo", "Ibn Battuta",
    "Mansa Musa", "Rosalind Franklin", "Alan Turing", "Cleopatra", "Leonardo da Vinci",
    "Harriet Tubman", "Confucius", "Charles Darwin", "Srinivasa Ramanujan", "Hypatia",
    "Simón Bolívar", "Catherine the Great", "Nelson Mandela", "Galileo Galilei",
    "Florence Nightingale", "Johannes Gutenberg", "Wangari Maathai", "Emmy Noether", "Zheng He",
    "Queen Elizabeth I", "Louis Pasteur", "Hokusai", "Ernest Shackleton", "Grace Hopper",
    "Marco Polo", "Avicenna", "Jane Austen", "Ludwig van Beethoven", "Gregor Mendel",
    "Rachel Carson", "Sun Tzu", "Mahatma Gandhi", "Amelia Earhart", "Michelangelo",
    "Isaac Newton", "Toussaint Louverture", "Murasaki Shikibu", "Albert Einstein", "Ashoka",
    "Rumi", "Katherine Johnson", "Dmitri Mendeleev", "Vincent van Gogh", "Sacagawea",
]
_PLACES = [
    "Iceland", "the Amazon rainforest", "Kyoto", "the Sahara", "Mongolia", "Patagonia", "Venice",
    "the Great Barrier Reef", "Machu Picchu", "Lake Baikal", "Madagascar", "the Dead Sea",
    "Istanbul", "Timbuktu", "the Galápagos Islands", "New Zealand", "Antarctica", "the Himalayas",
    "Petra", "Cappadocia", "the Mekong Delta", "Svalbard", "Zanzibar", "Bhutan", "Quebec City",
    "the Atacama Desert", "Angkor Wat", "the Scottish Highlands", "Marrakesh", "Tasmania",
    "the Faroe Islands", "Oaxaca", "Lisbon", "the Serengeti", "Hokkaido", "Cape Town",
    "the Yucatán Peninsula", "Tbilisi", "the Norwegian fjords", "Samarkand",
]
_EVENTS = [
    "the French Revolution", "the fall of the Berlin Wall", "the Apollo 11 mission",
    "the Black Death", "the Industrial Revolution", "the Meiji Restoration",
    "the building of the Panama Canal", "the Cuban Missile Crisis", "the Renaissance",
    "the partition of India", "the California Gold Rush", "the signing of Magna Carta",
    "the Irish Potato Famine", "the Space Race", "the Protestant Reformation",
    "the collapse of the Soviet Union", "the eruption of Vesuvius in 79 AD", "the Dust Bowl",
    "the Hundred Years' War", "the American Civil War", "the Haitian Revolution",
    "the Great Depression", "the Age of Exploration", "the Chernobyl disaster",
    "the fall of the Western Roman Empire", "the Battle of Hastings", "the Boston Tea Party",
    "the Scramble for Africa", "the Glorious Revolution", "the Taiping Rebellion",
]
_COUNTRIES = [
    "Peru", "Kenya", "Vietnam", "Norway", "Morocco", "Chile", "Indonesia", "Poland", "Ghana",
    "Argentina", "Portugal", "Nepal", "Canada", "Egypt", "Finland", "the Philippines",
    "South Korea", "Colombia", "Hungary", "Ethiopia", "Australia", "Turkey", "Uruguay",
    "Sri Lanka", "Greece", "Mexico", "Switzerland", "Tanzania", "Malaysia", "Ireland",
]


@_category("factual", "factual chat questions: science, history, people, places, countries")
def _gen_factual(rng: random.Random) -> list[str]:
    causes = _fill([
        "What causes {x}?", "Can you tell me what causes {x}?",
        "I've always wondered what causes {x}. Can you explain?", "What's the science behind {x}?",
        "what causes {x}", "Briefly, what causes {x}?", "Explain, scientifically, what causes {x}.",
    ], _PHENOMENA)
    how = _fill([
        "How does {x} work?", "Can you explain how {x} works?", "how does {x} actually work",
        "Give me a simple explanation of how {x} works.", "Walk me through how {x} works, step by step.",
        "What are the main parts of {x}, and what does each one do?",
        "I've never understood how {x} works. Could you explain it?",
    ], _MECHANISMS)
    who = _fill([
        "Who was {x}?", "Who was {x} and why are they remembered?", "What is {x} best known for?",
        "Tell me about {x}.", "Give me a short biography of {x}.", "What were the main achievements of {x}?",
        "why is {x} famous", "I keep hearing the name {x}. Who was that?",
        "What was the early life of {x} like?", "Name three interesting facts about {x}.",
    ], _PEOPLE)
    where = _fill([
        "What is {x} known for?", "Tell me some interesting facts about {x}.",
        "Why do people visit {x}?", "Give me a quick overview of {x}.",
        "What's the best time of year to visit {x}, and why?", "What wildlife can you find in {x}?",
        "I'm reading about {x}. What should I know about its history?",
    ], _PLACES)
    when = _fill([
        "What happened during {x}?", "Why was {x} important?", "What were the main causes of {x}?",
        "Summarize {x} in a few paragraphs.", "What were the long-term consequences of {x}?",
        "Give me a timeline of {x}.", "Who were the key figures in {x}?",
        "How do historians explain {x}?", "Explain {x} to a high-school student.",
    ], _EVENTS)
    country = _fill([
        "What is the capital of {x}?", "What languages are spoken in {x}?", "What currency does {x} use?",
        "What is the traditional food of {x}?", "What are the biggest industries in {x}?",
        "Tell me about the geography of {x}.", "What is the political system of {x}?",
        "What should a first-time visitor to {x} know?", "What are the most important holidays in {x}?",
    ], _COUNTRIES)
    out = (_take(rng, causes, 110) + _take(rng, how, 120) + _take(rng, who, 110) + _take(rng, where, 80)
           + _take(rng, when, 90) + _take(rng, country, 80))
    return _greet(rng, out, 0.08)


# ---------------------------------------------------------------------------------------
# How-to instructions
# ---------------------------------------------------------------------------------------

_TASKS = [
    "make a sourdough starter from scratch", "fix a flat tyre on my bicycle",
    "set up a Python virtual environment", "unclog a kitchen sink without chemicals",
    "negotiate a higher salary", "start running when I've never exercised", "remove a red wine stain from a carpet",
    "back up the photos on my phone", "write a good cover letter", "grow tomatoes in pots on a balcony",
    "start meditating", "learn to touch type", "iron a dress shirt", "make a budget spreadsheet",
    "clean a cast-iron pan", "change a car's engine oil", "train my puppy to sit", "jump-start a car",
    "cook rice on the stove without a rice cooker", "tie a bow tie", "paint a room quickly and neatly",
    "prepare for a job interview", "stop my glasses from fogging up", "make cold brew coffee at home",
    "write a haiku", "file my taxes as a freelancer", "start a vegetable compost bin", "learn a new language as an adult",
    "hang a heavy mirror on a plaster wall", "speed up a slow laptop", "fold a fitted sheet",
    "set up two-factor authentication on my accounts", "make a good first impression at a new job",
    "sharpen a kitchen knife", "propagate a pothos plant", "give a toast at a wedding",
    "keep bread fresh for longer", "make homemade pasta", "lower my electricity bill",
    "organise a small closet", "prepare a presentation in one evening", "brew a good cup of tea",
    "read a nutrition label", "stop procrastinating on big projects", "wash a wool sweater by hand",
    "replace a light switch safely", "teach a child to ride a bike", "write a resignation letter",
    "memorise a speech", "create a strong password that I can remember", "get rid of fruit flies",
    "start journaling", "pack a suitcase efficiently", "take better photos with my phone",
    "make a simple website", "deal with a difficult neighbour", "calm down before an exam",
    "descale a kettle", "bleed a radiator", "learn to juggle three balls", "make a paper airplane that flies far",
    "use git to undo my last commit", "cook a perfect soft-boiled egg", "save for a house deposit",
    "build a habit of reading every day", "care for a succulent", "speak up more in meetings",
    "remove a stripped screw", "season a wok", "make friends in a new city", "plan a week of healthy lunches",
    "get better sleep", "prune a rose bush", "write a short bio for LinkedIn", "clean my laptop keyboard",
    "make a smoothie without a blender", "prepare my garden for winter", "negotiate rent with my landlord",
    "install shelves in a rented flat without drilling", "practise the guitar efficiently",
    "write a thank-you note", "patch a small hole in drywall", "ask for feedback at work",
    "make my own cleaning spray", "keep houseplants alive while on holiday", "start learning to code",
]
_HOWTO_SUFFIX = [
    "Keep it brief.", "Please use numbered steps.", "I don't have much money to spend.",
    "Assume I have no special tools.", "I'm a complete beginner.", "Explain why each step matters.",
    "Keep it to five steps or fewer.", "What mistakes should I avoid?", "I only have about an hour.",
    "Please mention anything that could go wrong.",
]


@_category("howto", "how-to instructions for everyday, practical and technical tasks")
def _gen_howto(rng: random.Random) -> list[str]:
    pool = _fill([
        "How do I {x}?", "How can I {x}?", "What's the best way to {x}?",
        "Give me step-by-step instructions to {x}.", "I want to {x}. Where do I start?", "how to {x}",
        "Can you explain how to {x}?", "What are the steps to {x}?",
        "My friend asked me how to {x} and I didn't know. What should I tell them?",
        "Write a short guide on how to {x}.", "Is there an easy way to {x}?",
        "I tried to {x} last week and it went badly. How should I do it properly?",
        "What do I need to {x}?", "Teach me how to {x}.",
    ], _TASKS)
    return _greet(rng, _persona(rng, _decorate(rng, _take(rng, pool, 520), _HOWTO_SUFFIX, 0.3), 0.15), 0.06)


# ---------------------------------------------------------------------------------------
# Explanations of concepts
# ---------------------------------------------------------------------------------------

_CONCEPTS = [
    "entropy", "opportunity cost", "the Doppler effect", "natural selection", "recursion",
    "supply and demand", "machine learning", "the placebo effect", "quantum entanglement",
    "plate tectonics", "the theory of relativity", "the water cycle", "neural networks", "game theory",
    "DNA replication", "black holes", "the Pythagorean theorem", "probability", "cognitive dissonance",
    "the scientific method", "gravity", "climate change", "interest rates", "the Big Bang", "osmosis",
    "the electoral college", "compound interest", "encryption", "antibiotic resistance",
    "the Fibonacci sequence", "derivatives in calculus", "standard deviation", "Bayes' theorem",
    "the greenhouse effect", "herd immunity", "the Turing test", "the tragedy of the commons",
    "confirmation bias", "Moore's law", "carbon dating", "the separation of powers", "comparative advantage",
    "the Monty Hall problem", "photosynthesis", "the immune response to a virus", "electric current",
    "big-O notation", "the prisoner's dilemma", "circadian rhythms", "the central limit theorem",
    "inflation targeting by central banks", "the blockchain", "price elasticity", "dark matter",
    "the Krebs cycle", "sunk cost fallacy", "impressionism in painting", "the sonnet form",
    "the difference between weather and climate", "magnetism", "the stock-and-flow idea in systems thinking",
    "a hash table", "the Heisenberg uncertainty principle", "public goods", "Occam's razor",
    "the Coriolis effect", "the food chain", "exponential growth", "irony in literature",
    "the social contract", "a Fourier transform", "statistical significance", "mutations in genes",
    "an API", "the balance of payments", "the half-life of a radioactive element", "buoyancy",
    "the placebo-controlled trial", "the greenhouse gas methane", "operant conditioning", "a recession",
]
_AUDIENCES = [
    "to a ten-year-old", "to someone with no science background", "as if I were a first-year university student",
    "to my grandmother", "in simple terms", "to a software engineer", "using an everyday analogy",
    "in one paragraph", "in three bullet points", "in under 100 words", "with a concrete example",
    "to a curious teenager", "as precisely as you can", "without using jargon",
]


@_category("explain", "explanations of concepts for varied audiences and lengths")
def _gen_explain(rng: random.Random) -> list[str]:
    with_aud = _fill_cross([
        "Explain {x} {y}.", "Can you explain {x} {y}?", "Could you break down {x} {y}?",
        "I never really understood {x}. Could you explain it {y}?", "Please explain {x} {y}.",
        "What is {x}? Explain it {y}.", "Help me understand {x} {y}.",
    ], _CONCEPTS, _AUDIENCES)
    plain = _fill([
        "ELI5: {x}", "Teach me about {x}.", "What's the intuition behind {x}?", "Why does {x} matter?",
        "Give me an analogy that explains {x}.", "What is {x}, and where does it show up in everyday life?",
        "What are common misconceptions about {x}?", "explain {x}", "How would you teach {x} to a class?",
        "I have an exam tomorrow. Can you quickly explain {x}?", "What's the history of the idea of {x}?",
    ], _CONCEPTS)
    return _persona(rng, _take(rng, with_aud, 300) + _take(rng, plain, 200), 0.12)


# ---------------------------------------------------------------------------------------
# Code requests
# ---------------------------------------------------------------------------------------

_LANGS = ["Python", "JavaScript", "TypeScript", "Java", "C", "C++", "Go", "Rust", "Ruby", "C#",
          "Kotlin", "Swift", "PHP", "Haskell", "Lua", "Bash"]
_CODE_TASKS = [
    "checks whether a string is a palindrome", "reverses a singly linked list",
    "returns the n-th Fibonacci number", "counts how often each word appears in a text file",
    "merges two sorted lists into one sorted list", "validates an email address",
    "finds the largest element in an array", "removes duplicates from a list while keeping the order",
    "converts a temperature from Celsius to Fahrenheit", "reads a CSV file and prints the average of one column",
    "implements binary search", "checks whether a number is prime", "flattens a nested list",
    "computes the greatest common divisor of two integers", "reads a JSON file and prints its top-level keys",
    "generates a random password of a given length", "implements a stack with push, pop and peek",
    "sorts a list of people by age and then by name", "groups a list of words into anagrams",
    "computes the factorial of n recursively", "prints the FizzBuzz sequence up to 100",
    "counts the vowels in a string", "rotates a matrix by 90 degrees", "checks whether parentheses are balanced",
    "converts a Roman numeral to an integer", "finds the two numbers in an array that add up to a target",
    "implements a simple LRU cache", "computes the median of a list of numbers",
    "converts a number to its binary representation", "capitalises the first letter of every word",
    "finds the longest common prefix of a list of strings", "implements bubble sort",
    "checks whether two strings are anagrams", "returns all the prime numbers below n",
    "computes the dot product of two vectors", "parses a date string like 2024-03-15",
    "implements a queue using two stacks", "finds the most frequent element in a list",
    "retries a failing operation up to three times with a delay", "compresses a string like aaabb into a3b2",
    "walks a directory tree and lists every file larger than 1 MB", "implements depth-first search on a graph",
    "shuffles a list using the Fisher-Yates algorithm", "converts a string to snake_case",
    "checks whether a year is a leap year", "calculates the Levenshtein distance between two strings",
]
_CODE_TEMPLATES = [
    "Write a {x} function that {y}.", "Can you show me how to write a {x} program that {y}?",
    "In {x}, how would I write code that {y}?", "I need a {x} snippet that {y}. Please add comments.",
    "Write {x} code that {y}, and explain how it works.",
    "Give me a {x} implementation of a function that {y}, with a couple of test cases.",
    "write a function in {x} that {y}", "How do I write something in {x} that {y}? I'm new to the language.",
    "Please write clean, idiomatic {x} that {y}.",
    "For a coding interview, write a {x} function that {y} and state its time complexity.",
]
_SNIPPETS = [
    "def f(xs):\n    return [x for x in xs if x % 2 == 0]",
    "for (let i = 0; i < arr.length; i++) {\n  if (arr[i] > max) max = arr[i];\n}",
    "SELECT name, COUNT(*) FROM orders GROUP BY name HAVING COUNT(*) > 5;",
    "def avg(nums):\n    return sum(nums) / len(nums)",
    "while True:\n    line = input()\n    if line == 'quit':\n        break\n    print(line[::-1])",
    "const total = items.reduce((acc, item) => acc + item.price * item.qty, 0);",
    "int sum = 0;\nfor (int i = 1; i <= n; i++) sum += i * i;",
    "words = text.split()\ncounts = {}\nfor w in words:\n    counts[w] = counts.get(w, 0) + 1",
    "def is_sorted(a):\n    return all(a[i] <= a[i + 1] for i in range(len(a)))",
    "let result = s.split('').reverse().join('');",
    "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)",
    "grep -c 'ERROR' app.log | sort -n",
    "fn main() {\n    let v: Vec<i32> = (1..=10).filter(|x| x % 3 == 0).collect();\n    println!(\"{:?}\", v);\n}",
    "def add_item(item, basket=[]):\n    basket.append(item)\n    return basket",
    "for i in range(len(names)):\n    print(i, names[i])",
    "if x = 5:\n    print('five')",
    "public static int max(int[] a) {\n    int m = 0;\n    for (int v : a) if (v > m) m = v;\n    return m;\n}",
    "data = open('data.txt').read().splitlines()\nprint(len(data))",
    "squares = list(map(lambda n: n ** 2, range(10)))",
    "SELECT * FROM users WHERE signup_date > '2023-01-01' ORDER BY signup_date DESC LIMIT 10;",
]
_SNIPPET_TEMPLATES = [
    "What does this code do?\n\n{x}", "Explain this code line by line:\n\n{x}",
    "Is there a bug in this code? If so, how do I fix it?\n\n{x}", "How could I make this code cleaner?\n\n{x}",
    "Rewrite this code in a different language of your choice and explain the differences:\n\n{x}",
    "Can you add comments to this code?\n\n{x}", "{x}\n\nWhat would this print or return, and why?",
    "Suggest a better name for the variables in this snippet:\n\n{x}",
    "My teammate wrote this. Is it good code? Be honest.\n\n{x}",
]
_CODE_CONCEPTS = [
    ("a list", "a tuple in Python"), ("let", "const in JavaScript"), ("an interface", "an abstract class in Java"),
    ("a process", "a thread"), ("a pointer", "a reference in C++"), ("git merge", "git rebase"),
    ("an INNER JOIN", "a LEFT JOIN in SQL"), ("== ", "=== in JavaScript"), ("a stack", "a queue"),
    ("synchronous", "asynchronous code"), ("REST", "GraphQL"), ("a compiler", "an interpreter"),
    ("unit tests", "integration tests"), ("a shallow copy", "a deep copy"), ("TCP", "UDP"),
    ("an array", "a linked list"), ("composition", "inheritance"), ("a struct", "a class in C#"),
    ("Vec", "slices in Rust"), ("goroutines", "OS threads"), ("HTTP GET", "POST requests"),
    ("a library", "a framework"), ("static typing", "dynamic typing"), ("SQL", "NoSQL databases"),
]
_SQL_TASKS = [
    "finds the five customers who spent the most last year", "counts orders per month",
    "lists employees who earn more than their manager", "finds duplicate email addresses in a users table",
    "returns the second-highest salary", "shows products that have never been ordered",
    "computes a running total of sales by day", "deletes rows older than 90 days from a logs table",
]


@_category("code", "code writing, reading, debugging and programming concepts in many languages")
def _gen_code(rng: random.Random) -> list[str]:
    write = _fill_cross(_CODE_TEMPLATES, _LANGS, _CODE_TASKS)
    snippets = _fill(_SNIPPET_TEMPLATES, _SNIPPETS)
    concepts = _fill([
        "What is the difference between {x} and {y}?", "When should I use {x} instead of {y}?",
        "Explain {x} vs {y} with a short example.", "{X} or {y}: how do I choose?",
    ], [(a.strip(), b) for a, b in _CODE_CONCEPTS])
    sql = _fill([
        "Write an SQL query that {x}.", "How would I write a SQL query that {x}?",
        "I have a typical e-commerce database. Give me a query that {x}, and explain it.",
    ], _SQL_TASKS)
    return _persona(rng, _take(rng, write, 380), 0.08) + _take(rng, snippets, 110) + _take(rng, concepts, 60) + sql


# ---------------------------------------------------------------------------------------
# Math word problems and exercises (numbers drawn from the category's seeded rng)
# ---------------------------------------------------------------------------------------

_NAMES = [
    "Amara", "Ben", "Chen", "Dolores", "Emeka", "Fatima", "Gustav", "Hana", "Ivan", "Jasmine",
    "Kofi", "Lena", "Mateo", "Nadia", "Oliver", "Priya", "Quentin", "Rosa", "Sven", "Tariq",
    "Uma", "Victor", "Wen", "Ximena", "Yusuf", "Zoe", "Aiko", "Bruno", "Carmen", "Dev",
]
_GIRLS = ["Amara", "Dolores", "Fatima", "Hana", "Jasmine", "Lena", "Nadia", "Priya", "Rosa", "Uma", "Zoe", "Aiko"]
_ITEMS = [("notebook", "notebooks"), ("apple", "apples"), ("ticket", "tickets"), ("cupcake", "cupcakes"),
          ("pen", "pens"), ("plant", "plants"), ("comic book", "comic books"), ("bag of rice", "bags of rice"),
          ("T-shirt", "T-shirts"), ("bus pass", "bus passes"), ("candle", "candles"), ("mango", "mangoes")]
_MATH_PREFIX = ["Can you help me with this problem? ", "Homework question: ", "My daughter is stuck on this one: ",
                "Here's a puzzle from my maths class. ", "Math question: ", "I got a different answer from my friend. ",
                "Please solve: ", "Exam practice: "]
_MATH_SUFFIX = ["Show your work.", "Explain each step.", "Please show the steps.", "Just give me the answer.",
                "Check your answer at the end.", "Explain it simply; I'm helping my kid with homework."]


def _math_problem(rng: random.Random, kind: int) -> str:
    """One problem of template ``kind`` with fresh numbers and names."""
    r, name, name2 = rng.randint, rng.choice(_NAMES), rng.choice(_NAMES)
    item, items = rng.choice(_ITEMS)
    problems = [
        lambda: f"A train travels at {r(40, 160)} km/h for {r(2, 7)} hours. How far does it go?",
        lambda: (f"{name} buys {r(2, 9)} {items} at ${r(2, 15)} each and pays with a ${rng.choice([50, 100])} note. "
                 "How much change does {name} get?").replace("{name}", name),
        lambda: f"A rectangle is {r(3, 40)} cm long and {r(2, 25)} cm wide. What are its area and perimeter?",
        lambda: f"A jacket costs ${r(30, 250)} and is on sale for {rng.choice([10, 15, 20, 25, 30, 40])}% off. What is the sale price?",
        lambda: f"Solve for x: {r(2, 12)}x + {r(1, 40)} = {r(41, 150)}.",
        lambda: f"What is {rng.choice([5, 12, 15, 18, 35, 60, 75])}% of {r(40, 900)}?",
        lambda: (f"A recipe uses {r(2, 5)} cups of flour to make {r(10, 24)} cookies. "
                 f"How much flour is needed for {r(30, 90)} cookies?"),
        lambda: f"A tank holds {r(200, 2000)} litres and drains at {r(5, 40)} litres per minute. How long does it take to empty?",
        lambda: f"What is the sum of the whole numbers from 1 to {r(20, 500)}?",
        lambda: f"What is the probability of rolling a total of {r(2, 12)} with two fair six-sided dice?",
        lambda: f"What is {r(12, 99)} times {r(12, 99)}? Please do it without a calculator and show the method.",
        lambda: (f"If I invest ${r(5, 50) * 100} at {rng.choice([2, 3, 4, 5, 6, 7])}% interest compounded yearly, "
                 f"how much will I have after {r(3, 15)} years?"),
        lambda: f"My car uses {rng.choice([5, 6, 7, 8, 9])}.{r(0, 9)} litres per 100 km. How much fuel do I need for a {r(60, 900)} km trip?",
        lambda: f"Simplify the fraction {r(2, 20) * 6}/{r(2, 20) * 9}.",
        lambda: f"Find the derivative of f(x) = {r(2, 9)}x^3 - {r(2, 9)}x^2 + {r(1, 20)}x - {r(1, 9)}.",
        lambda: "What is the average of " + ", ".join(str(r(1, 100)) for _ in range(r(4, 8))) + "?",
        lambda: f"A class has {r(8, 20)} boys and {r(8, 20)} girls. What fraction of the class are girls, in lowest terms?",
        lambda: f"How many minutes are there in {r(2, 30)} days?",
        lambda: f"Convert {r(3, 200)} miles to kilometres.",
        lambda: (f"{name} is {r(2, 12)} years older than {name2 if name2 != name else 'Sam'}. Together their ages add up to "
                 f"{r(30, 80)}. How old is each of them?"),
        lambda: f"The angles of a triangle are in the ratio {r(1, 5)}:{r(1, 5)}:{r(2, 7)}. What are the three angles?",
        lambda: f"Find the area of a circle with a radius of {r(2, 30)} cm. Use pi = 3.14.",
        lambda: f"Integrate {r(2, 9)}x^2 + {r(1, 9)}x with respect to x.",
        lambda: f"Solve the quadratic equation x^2 - {r(3, 15)}x + {r(2, 30)} = 0.",
        lambda: (f"A worker can paint a fence in {r(3, 8)} hours and a second worker can paint it in {r(4, 12)} hours. "
                 "How long does it take them working together?"),
        lambda: (f"{name} scored {r(55, 95)}, {r(55, 95)} and {r(55, 95)} on three tests. "
                 "What score is needed on the fourth test to average 80?"),
        lambda: f"A shop raises a price by {r(5, 30)}% and then lowers it by the same percentage. Is the final price the same as the original? Use ${r(20, 200)} as an example.",
        lambda: f"How many different ways can {r(3, 7)} people stand in a line?",
        lambda: f"A map has a scale of 1:{rng.choice([25000, 50000, 100000, 250000])}. Two towns are {r(2, 30)} cm apart on the map. How far apart are they really?",
        lambda: f"Write {r(1, 3999)} in Roman numerals.",
        lambda: f"What is the least common multiple of {r(4, 30)} and {r(4, 30)}?",
        lambda: f"Express {r(1, 99)}/{rng.choice([8, 16, 20, 25, 40])} as a decimal and as a percentage.",
        lambda: (f"A cyclist rides {r(10, 40)} km at {r(12, 25)} km/h and then {r(10, 40)} km at {r(15, 30)} km/h. "
                 "What is the average speed for the whole ride?"),
        lambda: f"{name} saves ${r(5, 60)} a week. How many weeks until {name} can afford a {item} that costs ${r(100, 900)}?",
        lambda: f"A {r(3, 12)}-metre ladder leans against a wall with its foot {rng.choice(['one metre', 'two metres', '1.5 metres'])} from the wall. How high up the wall does it reach?",
        lambda: f"What is the standard deviation of the numbers {', '.join(str(r(1, 20)) for _ in range(5))}?",
        lambda: f"If a population of bacteria doubles every {r(10, 60)} minutes, how many are there after {r(2, 8)} hours, starting from one?",
        lambda: f"A bag holds {r(2, 9)} red, {r(2, 9)} blue and {r(2, 9)} green marbles. If I draw two without replacement, what is the chance both are red?",
        lambda: f"Is {r(100, 999)} divisible by 3? Explain the divisibility rule.",
        lambda: f"Solve the system of equations: {r(1, 6)}x + {r(1, 6)}y = {r(10, 40)} and x - y = {r(1, 8)}.",
    ]
    return problems[kind]()


@_category("math", "math word problems and exercises with varied numbers")
def _gen_math(rng: random.Random) -> list[str]:
    kinds = 40
    out = [_math_problem(rng, k % kinds) for k in range(kinds * 10)]
    out = [f"{rng.choice(_MATH_PREFIX)}{p}" if rng.random() < 0.25 else p for p in out]
    return _decorate(rng, out, _MATH_SUFFIX, 0.35)


# ---------------------------------------------------------------------------------------
# Summarisation (short passages written for this project)
# ---------------------------------------------------------------------------------------

_PASSAGES = [
    "The city council voted on Tuesday to convert three downtown streets into pedestrian-only zones "
    "starting next spring. Supporters argue the change will bring more shoppers to local businesses and "
    "reduce air pollution, while some shop owners worry that customers who drive will stop coming. The "
    "council has promised to add two new car parks on the edge of the district and to review the scheme "
    "after twelve months.",
    "Honeybees communicate the location of food through a movement known as the waggle dance. A forager "
    "returning to the hive runs in a figure-of-eight pattern, and the angle of the straight run relative to "
    "vertical shows the direction of the food relative to the sun. The length of the waggle indicates the "
    "distance. Other bees follow the dancer closely and then fly out to find the source themselves.",
    "Our quarterly results show revenue up 8 percent compared with the same period last year, driven mainly "
    "by strong sales of the new subscription plan. Costs rose faster than expected, however, because of "
    "higher shipping prices and the opening of a second warehouse. As a result, operating profit was flat. "
    "Management expects margins to improve in the second half as the warehouse reaches full capacity.",
    "Minutes of the garden club meeting: Twelve members attended. The treasurer reported a balance of 430 "
    "pounds after the plant sale. Members agreed to spend up to 150 pounds on new tools for the community "
    "plot. The autumn bulb planting day will be held on the second Saturday of October. Priya volunteered to "
    "organise refreshments, and Tom will contact the local school about involving pupils.",
    "The Great Fire of London began in a bakery on Pudding Lane in the early hours of 2 September 1666. "
    "Fanned by a strong east wind, it spread quickly through the narrow streets of timber houses. Over four "
    "days it destroyed more than 13,000 homes and St Paul's Cathedral. Remarkably few deaths were recorded, "
    "though historians suspect the true number was higher. The rebuilding that followed introduced stricter "
    "rules on building materials.",
    "Sleep researchers have found that teenagers' internal body clocks shift later during puberty, which "
    "makes it genuinely harder for them to fall asleep early. When some school districts moved their start "
    "times from 7:30 to 8:30 in the morning, students slept longer on average, attendance improved and "
    "fewer students reported feeling sleepy in class. Critics point to the cost of changing bus schedules.",
    "The new X200 wireless speaker offers up to 18 hours of battery life, water resistance suitable for "
    "the beach or pool, and a built-in microphone for calls. It can be paired with a second speaker for "
    "stereo sound. Reviewers praised its clear mid-range but found the bass weaker than rival models at the "
    "same price. It comes in four colours and charges over USB-C.",
    "Yesterday I finally finished the coastal path walk I had been planning for years. It took me six days "
    "to cover roughly 120 kilometres. The first two days were wet and miserable, and I nearly gave up after "
    "twisting my ankle on a muddy descent. But the weather cleared, the cliffs were spectacular, and by the "
    "end I felt fitter and calmer than I have in a long time.",
    "Microplastics are tiny plastic fragments less than five millimetres long. They come from the breakdown "
    "of larger plastic items, from synthetic clothing fibres released in the wash, and from products such as "
    "car tyres. Scientists have found them in oceans, soil, drinking water and even human blood. Their "
    "long-term effects on health are still uncertain, and researchers are calling for better ways to measure "
    "exposure.",
    "Dear residents, the water supply to blocks A and B will be switched off between 9 a.m. and 3 p.m. "
    "on Thursday while engineers replace a faulty valve. Please store enough water for drinking and cooking "
    "beforehand. The lifts will continue to work as normal. We apologise for the inconvenience and thank you "
    "for your patience. If you have medical needs that require running water, please contact the office.",
    "The octopus is one of the most intelligent invertebrates. Octopuses have been observed opening jars, "
    "escaping from aquarium tanks and using coconut shells as portable shelters. Around two thirds of their "
    "neurons are located in their arms rather than their brain, which allows each arm to respond to touch "
    "and taste with a surprising degree of independence.",
    "After three years of decline, the number of visitors to the national park rose sharply this summer. "
    "Park officials credit a new shuttle bus service from the nearest railway station and a social media "
    "campaign highlighting lesser-known trails. The increase has brought problems too: litter and erosion "
    "on popular paths have worsened, and rangers are asking for extra staff next season.",
    "Remote work has changed how many companies think about office space. Some firms have given up large "
    "headquarters in favour of smaller hubs where employees meet a few days a month. Supporters say this "
    "saves money and widens the pool of people they can hire. Others worry that junior staff learn less "
    "when they rarely sit next to experienced colleagues.",
    "Marie sat by the window of the night train, watching the dark fields slip past. She had left a note on "
    "the kitchen table and nothing else. In her bag were a change of clothes, her grandmother's address and "
    "two hundred euros. She did not know whether her grandmother would recognise her after fifteen years, "
    "but for the first time in months she felt that she was moving forward.",
    "The committee reviewed three proposals for the new library software. Option one is the cheapest but "
    "lacks support for e-books. Option two includes e-books and a mobile app but requires annual fees that "
    "would rise after the second year. Option three is open source and free to use, but the library would "
    "need to pay a contractor to set it up and maintain it. The committee recommends option two.",
    "Fermentation is one of the oldest methods of preserving food. Microorganisms such as bacteria and yeast "
    "convert sugars into acids, gases or alcohol, which makes the food less hospitable to the microbes that "
    "cause spoilage. Yoghurt, sauerkraut, kimchi, miso and sourdough bread are all products of fermentation. "
    "Many people also value fermented foods for their distinctive flavours.",
    "Customer review: I ordered the blue armchair in March and it arrived two weeks later than promised. "
    "The delivery team were friendly but left packaging everywhere. The chair itself is comfortable and the "
    "fabric feels good quality, although the colour is darker than in the photos. Customer service answered "
    "my email quickly and offered a small discount for the delay. Overall I'm fairly happy.",
    "The Antikythera mechanism is an ancient Greek device discovered in a shipwreck in 1901. Built around the "
    "second century BC, it used a complex system of bronze gears to predict the positions of the Sun and "
    "Moon, the phases of the Moon and the timing of eclipses. Nothing of comparable complexity is known from "
    "the following thousand years, and researchers are still reconstructing exactly how it worked.",
    "Starting next month, all employees must complete the new online security training by the end of the "
    "quarter. The course takes about forty minutes and covers phishing emails, password managers and how to "
    "report a lost laptop. Managers will receive a weekly list of team members who have not finished it. "
    "Access to the payroll system will be suspended for anyone who misses the deadline.",
    "In many parts of the world, the population is getting older. Falling birth rates and longer life "
    "expectancy mean that there will be fewer working-age people for every retiree. Governments are "
    "responding in different ways: some are raising the retirement age, some are encouraging immigration, "
    "and others are investing in automation and care technology to support elderly people at home.",
    "The volunteer fire brigade held its annual open day on Sunday. Hundreds of families toured the station, "
    "sprayed the hoses and watched a demonstration of how to put out a kitchen fire safely. The brigade "
    "raised just over two thousand dollars for new protective equipment and signed up six new volunteers, "
    "its best result in a decade.",
    "Photosynthesis in most plants happens in two stages. In the light-dependent reactions, which take place "
    "in the thylakoid membranes, energy from sunlight splits water and produces ATP and NADPH, releasing "
    "oxygen as a by-product. In the Calvin cycle, which occurs in the stroma, that chemical energy is used to "
    "turn carbon dioxide into sugars the plant can use to grow.",
    "Hi all, quick update on the kitchen renovation. The plumber found an old leak behind the sink, so the "
    "floor has to be replaced, which will add about a week and roughly 800 dollars. The cabinets are still "
    "on schedule for delivery on the 14th. I've asked the electrician to come on the 16th instead of the "
    "12th. Let me know if that causes problems for anyone.",
    "The study followed 2,000 adults for ten years and found that those who walked at least 7,000 steps a "
    "day had a lower risk of early death than those who walked fewer. Above roughly 10,000 steps, the "
    "additional benefit became small. The authors note that the study shows an association, not proof of "
    "cause, because people who walk more may differ in other ways.",
    "Chess was introduced to Europe through the Islamic world around the tenth century. Over the next few "
    "hundred years the rules changed considerably. The queen, once a weak piece that moved only one square "
    "diagonally, became the most powerful piece on the board in the late fifteenth century, which made games "
    "much faster and more aggressive.",
    "Our app update introduces dark mode, faster loading of the home feed and a redesigned settings page. "
    "We also fixed a bug that caused notifications to arrive twice on some Android phones. Because of "
    "feedback from users, the 'share' button has moved back to the bottom of each post. Please tell us what "
    "you think through the feedback form in the menu.",
    "The glacier in the valley above the village has retreated by nearly a kilometre since the 1950s. "
    "Older residents remember skating on a lake that no longer freezes in winter. The melting has created "
    "new risks, including sudden floods when meltwater lakes break through natural dams, and the regional "
    "government has installed an early warning system.",
    "Mentoring programmes pair less experienced employees with more senior colleagues who offer advice and "
    "support. Well-run programmes set clear goals, meet regularly and allow either person to end the pairing "
    "if it is not working. Research suggests that mentees are more likely to be promoted, and mentors often "
    "report that the experience improves their own leadership skills.",
]
_SUMMARY_TEMPLATES = [
    "Summarize the following text in one sentence:\n\n{x}", "TL;DR this for me:\n{x}",
    "Can you give me the key points of this passage?\n\n{x}", "{x}\n\nSummarize the above in three bullet points.",
    "Write a headline for this:\n\n{x}", "Here's a paragraph I need to understand quickly. Summarize it for a busy reader.\n\n{x}",
    "What is the main idea of this passage?\n\n\"{x}\"", "Condense this into a tweet-length summary: {x}",
    "Summarize this for a ten-year-old: {x}", "Extract the three most important facts from this text:\n\n{x}",
    "Please write a two-sentence summary of the text below.\n\n{x}", "{x}\n\nWhat's the gist?",
    "Give me a short summary of this, then list any questions it leaves unanswered.\n\n{x}",
    "Summarise in plain language:\n{x}", "Read this and tell me what the writer wants the reader to do or know.\n\n{x}",
]


@_category("summarize", "summarisation and key-point extraction from short embedded passages")
def _gen_summarize(rng: random.Random) -> list[str]:
    return _take(rng, _fill(_SUMMARY_TEMPLATES, _PASSAGES), 330)


# ---------------------------------------------------------------------------------------
# Stories and creative writing
# ---------------------------------------------------------------------------------------

_CHARACTERS = [
    "a retired lighthouse keeper", "a robot who collects lost socks", "a girl who can talk to birds",
    "an astronaut stranded on Mars", "a baker who accidentally makes magic bread", "a shy dragon",
    "a detective who is afraid of the dark", "two rival street musicians", "a grandmother who builds rockets",
    "a cat who runs a hotel", "a boy who finds a door in the back of his wardrobe", "a tired superhero",
    "a ghost who haunts a library", "an inventor whose machines keep coming to life", "a lonely whale",
    "a postman in a village where letters predict the future", "a chef competing in a cooking contest",
    "a young queen on her first day", "a farmer who finds a meteorite in her field", "a clumsy wizard's apprentice",
    "a tortoise who wants to see the world", "a scientist who shrinks herself by mistake", "a pirate who gets seasick",
    "a teenage hacker", "a mountain guide caught in a storm", "a family of mice living in a piano",
    "a knight who would rather be a poet", "a museum guard who sees the paintings move", "an old fisherman and a talking fish",
    "twins separated at birth who meet on a train", "a village witch who runs the pharmacy",
    "a courier on a bicycle in a future city", "a child who is the last person awake on New Year's Eve",
]
_SETTINGS = [
    "a small fishing village", "a space station orbiting Jupiter", "Victorian London", "a desert city",
    "an abandoned amusement park", "a bustling night market", "a snowed-in mountain hotel",
    "a floating city above the clouds", "a school at the bottom of the sea", "a medieval monastery",
    "a train that never stops", "a rainforest", "a tiny island with one shop", "a city where it always rains",
    "a colony ship halfway to another star", "1920s Paris", "a haunted lighthouse", "a suburban cul-de-sac",
]
_GENRES = ["mystery", "science fiction", "fairy-tale", "ghost", "funny", "heartwarming", "adventure",
           "bedtime", "fantasy", "slice-of-life", "suspenseful", "bittersweet"]
_OPENINGS = [
    "The last bus of the night was empty except for a man holding a birdcage.",
    "Nobody in the village had ever opened the blue door, until today.",
    "The message arrived three days after the sender had died.",
    "On the morning of her ninetieth birthday, Edith decided to run away.",
    "It was the kind of storm that made the lighthouse hum.",
    "The robot had been told never to go upstairs.",
    "When the snow finally melted, the children found a staircase leading down into the hill.",
    "I only borrowed the umbrella because it was raining. I didn't know it was going to talk.",
    "The map showed a town that should not exist.",
    "Every clock in the house stopped at 3:17.",
    "My brother swore the new neighbours never slept.",
    "The spaceship landed in the middle of the county fair, right next to the pie contest.",
    "She found the letter tucked inside a library book that hadn't been borrowed since 1974.",
    "The first thing I noticed about the island was that the birds were silent.",
    "Grandpa said the garden gnome used to be a real person.",
]
_OBJECTS = ["a key that fits no lock", "an old photograph", "a message in a bottle", "a pocket watch that runs backwards",
            "a map drawn on a napkin", "a suitcase full of seeds", "a violin with no strings", "a glowing stone",
            "a diary written in the future", "a stray dog with a collar that gives an address"]
_STORY_SUFFIX = ["Keep it short.", "Make it suitable for children.", "Give it a twist ending.",
                 "Write it in the first person.", "Use lots of dialogue.", "End on a hopeful note.",
                 "Write it in the present tense.", "Make the reader laugh at least once."]


@_category("story", "story writing: openings, continuations, genres, characters and settings")
def _gen_story(rng: random.Random) -> list[str]:
    full = _fill([
        "Write a {x} story set in {z} about {y}.", "Tell me a {x} story featuring {y}, set in {z}.",
        "Can you write me a short {x} tale set in {z}? The main character is {y}.",
        "I'd love a {x} story. It should take place in {z} and star {y}.",
    ], [(g, c, s) for g in _GENRES for c in _CHARACTERS for s in _SETTINGS])
    char = _fill([
        "Write the opening paragraph of a novel about {x}.", "Write a bedtime story for a five-year-old about {x}.",
        "write a short story about {x}", "Tell me a story about {x}.", "Write a flash fiction piece about {x}.",
        "Write a story told from the point of view of {x}.", "Describe a day in the life of {x}.",
    ], _CHARACTERS)
    obj = _fill(["Write a 200-word story in which {x} finds {y}.", "Write a story where {x} discovers {y}."],
                [(c, o) for c in _CHARACTERS for o in _OBJECTS])
    cont = _fill([
        "Continue this story: {x}", "Write a short story that begins with this line: \"{x}\"",
        "Here's the first sentence of a story. Keep going for a few paragraphs.\n\n{x}",
        "{x}\n\nWhat happens next? Write the next scene.", "Use this as the opening line of a mystery: {x}",
    ], _OPENINGS)
    out = _take(rng, full, 200) + _take(rng, char, 80) + _take(rng, obj, 50) + _take(rng, cont, 60)
    return _decorate(rng, out, _STORY_SUFFIX, 0.3)


_POEM_FORMS = ["haiku", "limerick", "sonnet", "short free-verse poem", "rhyming poem", "poem in four quatrains",
               "cinquain", "villanelle", "ode", "nursery rhyme"]
_POEM_TOPICS = [
    "the first snowfall of winter", "a cup of coffee", "the ocean at night", "moving to a new city",
    "an old dog", "autumn leaves", "the sound of rain on a tin roof", "friendship", "a broken umbrella",
    "the Moon landing", "a busy train station", "my grandmother's kitchen", "a thunderstorm", "learning to code",
    "Monday mornings", "a lighthouse", "the smell of bread", "a city at dawn", "losing a game", "spring cleaning",
    "a sunflower", "the last day of summer holidays", "bees", "a mountain lake", "a cat watching birds",
]
_BUSINESSES = ["a bicycle repair shop", "a vegan bakery", "a dog-walking service", "a language school",
               "a second-hand bookshop", "a plumbing company", "a yoga studio for older adults",
               "a mobile coffee van", "an online plant shop", "a children's science club", "a solar panel installer",
               "a board game café", "a local bank branch", "a tattoo studio", "a recycling campaign"]
_OCCASIONS = ["my best friend's wedding", "my parents' 40th anniversary", "a colleague's retirement",
              "my sister's graduation", "a team that just finished a hard project", "a new year's party",
              "my grandfather's 90th birthday", "the opening of a community garden"]


@_category("creative", "poems, slogans, jokes, names, toasts, lyrics and other short creative pieces")
def _gen_creative(rng: random.Random) -> list[str]:
    poems = _fill([
        "Write a {x} about {y}.", "Can you write a {x} about {y}?", "Compose a {x} on the theme of {y}.",
        "write me a {x} about {y}", "I need a {x} about {y} for a card.",
    ], [(f, t) for f in _POEM_FORMS for t in _POEM_TOPICS])
    biz = _fill([
        "Write a catchy slogan for {x}.", "Suggest five names for {x}.", "Write a short radio advert for {x}.",
        "Come up with a tagline and a one-paragraph description for {x}.", "Write an Instagram caption announcing {x}.",
        "Brainstorm ten name ideas for {x}, and explain your favourite.",
    ], _BUSINESSES)
    toasts = _fill([
        "Write a toast for {x}.", "Help me write a short speech for {x}.", "Write a funny but kind toast for {x}.",
        "I have to say a few words at {x}. Can you write something heartfelt that takes about a minute?",
    ], _OCCASIONS)
    misc = _fill([
        "Tell me a joke about {x}.", "Write a riddle whose answer is {x}.", "Write song lyrics about {x}.",
        "Write a short monologue from the perspective of {x}.", "Describe {x} using only metaphors.",
    ], _POEM_TOPICS)
    return _take(rng, poems, 170) + _take(rng, biz, 60) + toasts + _take(rng, misc, 60)


# ---------------------------------------------------------------------------------------
# Emails, letters and messages
# ---------------------------------------------------------------------------------------

_EMAIL_PURPOSES = [
    "asking my manager for a day off next Friday", "apologising to a customer for a delayed order",
    "following up after a job interview", "inviting colleagues to a farewell lunch for Maria",
    "asking a professor for an extension on an essay", "complaining to my landlord about a broken heater",
    "thanking a mentor for their advice over the past year", "declining a meeting invitation politely",
    "requesting a refund for a faulty kettle", "introducing myself to my new team",
    "reminding a client about an unpaid invoice", "asking a colleague to review my report by Thursday",
    "telling my team that the project deadline has moved", "cancelling a gym membership",
    "asking for a reference from a former employer", "welcoming a new member to our volunteer group",
    "responding to a customer who received the wrong size", "pitching a guest article to a blog editor",
    "informing parents about a school trip next month", "negotiating a later start date for a new job",
    "asking my neighbours to keep the noise down after 11 pm", "resigning from my job with two weeks' notice",
    "requesting a meeting with my child's teacher", "thanking a hotel for excellent service",
    "asking the council to repair a pothole on my street", "announcing a price increase to our customers",
    "checking in with a friend I haven't spoken to in months", "congratulating a colleague on a promotion",
    "turning down a job offer while keeping the door open", "asking for feedback after being rejected for a role",
    "reporting a bug to a software vendor", "requesting a quote for catering at a company event",
    "proposing a four-day work week trial to my boss", "reminding the team about Friday's fire drill",
    "explaining to a client why the launch is delayed", "asking a supplier to confirm a delivery date",
]
_TONES = ["formal", "friendly", "polite but firm", "short", "warm", "professional", "casual", "apologetic"]


@_category("email", "emails, letters, notes and messages with different purposes and tones")
def _gen_email(rng: random.Random) -> list[str]:
    toned = _fill([
        "Write a {y} email {x}.", "Draft a {y} email {x}.", "Help me write a {y} message {x}.",
        "Can you write an email {x}? Make it {y}.", "Compose a {y} letter {x}.",
    ], [(p, t) for p in _EMAIL_PURPOSES for t in _TONES])
    plain = _fill([
        "I need to send an email {x}. Can you draft it for me?", "write an email {x}",
        "What's a good way to word an email {x}?", "Could you help me with an email {x}? I keep getting the tone wrong.",
        "Give me a subject line and a short body for an email {x}.", "Write a text message {x}.",
    ], _EMAIL_PURPOSES)
    letters = _fill([
        "Write a cover letter for a {x} position.", "Write a letter of recommendation for a former {x}.",
        "Draft a thank-you note to the {x} who helped me last week.",
    ], ["junior data analyst", "nurse", "primary school teacher", "barista", "graphic designer", "lab technician",
        "warehouse supervisor", "software developer", "museum curator", "sales assistant"])
    return _take(rng, toned, 200) + _take(rng, plain, 120) + letters


# ---------------------------------------------------------------------------------------
# Rewriting, editing and translation
# ---------------------------------------------------------------------------------------

_SENTENCES = [
    "We regret to inform you that your application has not been successful on this occasion.",
    "The meeting is at 3, don't be late or we start without you.",
    "Our product helps small businesses manage their money more easily.",
    "I think maybe we should probably consider changing the plan a little bit.",
    "The weather was nice so we went to the beach and had a picnic.",
    "Please ensure that all equipment is returned to the storage room after use.",
    "This restaurant has the best noodles in town and the staff are really friendly.",
    "Can you send me the file when you get a chance?",
    "The results of the experiment were not what the researchers had expected.",
    "Due to unforeseen circumstances, the concert has been postponed until further notice.",
    "I'm so sorry I missed your call, things have been crazy at work.",
    "Exercise improves mood, sleep and overall health.",
    "The new policy will take effect from the first of next month.",
    "Kids, dinner is ready, wash your hands and come to the table.",
    "Global temperatures have risen by about one degree Celsius since pre-industrial times.",
    "Thank you for your patience while we look into this issue.",
    "The train was delayed by forty minutes because of a signal failure.",
    "Our team exceeded its sales target for the third quarter in a row.",
    "I would like to book a table for four people on Saturday evening.",
    "Reading every day is a great way to expand your vocabulary.",
    "The library will be closed on public holidays.",
    "He didn't study for the exam, but he still passed.",
    "Water the plants twice a week and keep them out of direct sunlight.",
    "The company is committed to reducing its carbon emissions by half by 2030.",
]
_ERRORFUL = [
    "Me and him goes to the store yesterday.", "Their going to be late because there car broke down.",
    "The informations you gave me was very usefull.", "She don't like coffee, she prefer tea.",
    "Between you and I, the project are behind schedule.", "I could of won if I had trained more.",
    "Everyone have to bring they're own lunch.", "Its been a long time since we seen each other.",
    "The datas shows that sales has increased.", "If I would have known, I would have came earlier.",
    "He runned to the shop but it were closed.", "Less people came to the event then we expected.",
]
_LANGUAGES = ["French", "Spanish", "German", "Italian", "Portuguese", "Dutch", "Japanese", "Mandarin Chinese",
              "Korean", "Swahili", "Hindi", "Polish", "Turkish", "Arabic", "Swedish"]


@_category("rewrite", "rewriting, proofreading, tone changes, paraphrase and translation requests")
def _gen_rewrite(rng: random.Random) -> list[str]:
    styles = _fill([
        "Rewrite this sentence to sound more formal: {x}", "Make this more concise: \"{x}\"",
        "Paraphrase the following: {x}", "Rewrite this in a friendlier tone:\n\n{x}",
        "Make this sound more persuasive: {x}", "Rewrite this for a children's book: \"{x}\"",
        "Give me three different ways to say this: {x}", "How would a pirate say this? \"{x}\"",
        "Turn this sentence into a question: {x}", "Rewrite this in the passive voice: {x}",
        "Can you make this sound less robotic? {x}", "Rewrite the following as a tweet: {x}",
        "Simplify this for someone learning English: {x}", "Make this sound more enthusiastic: {x}",
    ], _SENTENCES)
    fix = _fill([
        "Fix the grammar in this sentence: {x}", "Correct any mistakes: \"{x}\"",
        "Proofread this and explain what was wrong: {x}", "Is this sentence correct? {x}",
        "What's wrong with this sentence? \"{x}\"",
    ], _ERRORFUL)
    translate = _fill([
        "Translate into {y}: {x}", "How do you say \"{x}\" in {y}?", "Translate this sentence to {y}, please: {x}",
        "Can you translate the following into {y} and explain any tricky words?\n\n{x}",
    ], [(s, lang) for s in _SENTENCES for lang in _LANGUAGES])
    return _take(rng, styles, 180) + fix + _take(rng, translate, 140)


# ---------------------------------------------------------------------------------------
# Lists, recommendations and brainstorming
# ---------------------------------------------------------------------------------------

_LIST_THINGS = [
    "tips for better sleep", "countries in South America and their capitals", "healthy breakfast ideas",
    "common logical fallacies", "famous paintings from the 19th century", "ways to reduce plastic use at home",
    "board games for a family night", "renewable energy sources", "houseplants that are hard to kill",
    "classic science fiction novels", "questions to ask at the end of a job interview", "cheap date ideas",
    "exercises I can do at my desk", "important inventions of the 20th century", "vegetables that grow well in shade",
    "ways to practise gratitude", "mistakes first-time managers make", "famous speeches in history",
    "fun facts about octopuses", "rainy-day activities for kids", "podcasts about history",
    "skills every programmer should learn", "ways to save money on groceries", "dog breeds good for apartments",
    "signs of burnout", "weekend projects for learning electronics", "uses for baking soda around the house",
    "key events of the Cold War", "spices every kitchen should have", "ways to be more productive in the morning",
    "open-source tools for data analysis", "gift ideas for a teenager who loves music", "birds I might see in a city park",
    "phrases that make emails sound more polite", "things to check before signing a rental contract",
    "famous mathematicians and what they discovered", "ways to make a small room feel bigger",
    "icebreaker questions for a workshop", "foods high in iron", "tips for public speaking",
    "features to look for in a good laptop", "ways to cool a house without air conditioning",
    "habits of effective students", "well-known Greek myths", "strategies for paying off debt",
]
_NUMBERS = ["three", "five", "seven", "ten", "4", "6", "8", "a few", "some"]


@_category("lists", "lists, recommendations and brainstorming")
def _gen_lists(rng: random.Random) -> list[str]:
    pool = _fill([
        "List {y} {x}.", "Give me {y} {x}.", "What are {y} {x}?", "Name {y} {x}, with one sentence about each.",
        "Can you suggest {y} {x}?", "I'm looking for {y} {x}. Any ideas?", "Make a list of {y} {x}.",
        "Brainstorm {y} {x} for me.",
    ], [(t, n) for t in _LIST_THINGS for n in _NUMBERS])
    plain = _fill([
        "What are the best {x}?", "{X}: give me your top picks and say why.", "Do you know any good {x}?",
        "Put together a short list of {x}, ranked from most to least important.",
    ], _LIST_THINGS)
    return _greet(rng, _persona(rng, _take(rng, pool, 260) + _take(rng, plain, 80), 0.12), 0.06)


# ---------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------

_CHOICES = [  # pairs one might choose between
    ("renting", "buying a home"), ("electric cars", "petrol cars"), ("tea", "coffee"), ("stocks", "bonds"),
    ("nuclear power", "solar power"), ("e-readers", "paper books"), ("running", "cycling for fitness"),
    ("Android", "iPhone"), ("a Roth IRA", "a traditional IRA"), ("butter", "margarine"),
    ("learning piano", "learning guitar"), ("a credit card", "a debit card"), ("LED bulbs", "incandescent bulbs"),
    ("working from home", "working in an office"), ("yoga", "pilates"), ("a university degree", "an apprenticeship"),
    ("trains", "planes for travel within Europe"), ("cats", "dogs as pets"), ("a laptop", "a desktop computer"),
    ("DSLR cameras", "mirrorless cameras"), ("white rice", "brown rice"), ("public schools", "private schools"),
    ("wool", "synthetic fleece"), ("freelancing", "full-time employment"), ("a heat pump", "a gas boiler"),
    ("a hybrid car", "a fully electric car"), ("a gas stove", "an induction hob"), ("Python", "R for data analysis"),
    ("a Kindle", "a tablet for reading"), ("a gym membership", "home workouts"),
]
_CONTRASTS = [  # pairs one might confuse
    ("mitosis", "meiosis"), ("weather", "climate"), ("viruses", "bacteria"), ("baking soda", "baking powder"),
    ("capitalism", "socialism"), ("crocodiles", "alligators"), ("the Roman Republic", "the Roman Empire"),
    ("monarchy", "republic"), ("frogs", "toads"), ("a hurricane", "a tornado"), ("Impressionism", "Expressionism"),
    ("Stoicism", "Epicureanism"), ("the House of Representatives", "the Senate"), ("the violin", "the viola"),
    ("a will", "a trust"), ("Greek", "Roman mythology"), ("Mars", "Venus"), ("classical", "operant conditioning"),
    ("fission", "fusion"), ("empathy", "sympathy"), ("a simile", "a metaphor"), ("speed", "velocity"),
    ("an epidemic", "a pandemic"), ("latitude", "longitude"), ("a comet", "an asteroid"), ("affect", "effect"),
]


@_category("compare", "comparisons, differences, pros and cons")
def _gen_compare(rng: random.Random) -> list[str]:
    both = _fill([
        "Compare {x} and {y}.", "What are the differences between {x} and {y}?", "What's the difference between {x} and {y}?",
        "Make a table comparing {x} and {y}.", "How do {x} and {y} differ?", "Is {x} really that different from {y}?",
        "In what ways are {x} and {y} similar, and in what ways are they different?",
        "compare {x} with {y} in a few sentences", "Explain {x} versus {y} to a beginner.",
    ], _CHOICES + _CONTRASTS)
    choose = _fill([
        "Give me the pros and cons of {x} versus {y}.", "{X} vs {y}: which is better, and for whom?",
        "I can't decide between {x} and {y}. Can you help me think it through?",
        "Should I go for {x} or {y}? What questions should I ask myself?",
    ], _CHOICES)
    confuse = _fill([
        "I always mix up {x} and {y}. How can I tell them apart?", "Is there an easy way to remember the difference between {x} and {y}?",
    ], _CONTRASTS)
    return _greet(rng, _take(rng, both, 220) + _take(rng, choose, 80) + confuse, 0.05)


# ---------------------------------------------------------------------------------------
# Personal advice
# ---------------------------------------------------------------------------------------

_SITUATIONS = [
    "I just moved to a new city and don't know anyone", "my teenage son spends all day on his phone",
    "I have a job interview tomorrow and I'm really nervous", "I keep procrastinating on my thesis",
    "my coworker keeps taking credit for my work", "I want to switch careers from accounting to software development",
    "I can't fall asleep before two in the morning", "my money always runs out before the end of the month",
    "my dog barks at every visitor", "I've been offered a promotion but it means moving abroad",
    "my best friend forgot my birthday and I feel hurt", "I have too many tasks at work and can't say no",
    "my elderly father refuses to stop driving", "I want to get fit but I hate the gym",
    "my flatmate never does the washing up", "I feel stuck in my current job", "I get anxious speaking in meetings",
    "my kids fight every time we go on a car trip", "I have a presentation to a large audience next week",
    "I'm thinking about going back to university at 40", "my partner and I disagree about how to spend money",
    "I spend too much time on social media", "I was rejected from my dream job",
    "my small business isn't getting enough customers", "I want to start investing but know nothing about it",
    "I lost touch with an old friend and want to reconnect", "my manager gives me vague feedback",
    "I have trouble sticking to a diet", "I'm moving in with my partner for the first time",
    "I'm a new teacher and my class won't listen", "I keep losing my keys", "I'm burned out from caring for a relative",
    "my neighbour's tree drops leaves all over my garden", "I need to tell my team about layoffs",
    "I've been asked to be a best man and I've never given a speech", "I want to learn to draw but I'm impatient",
]


@_category("advice", "personal, work and family advice for first-person situations")
def _gen_advice(rng: random.Random) -> list[str]:
    pool = _fill([
        "{X}. What should I do?", "{X}. Any advice?", "I need some advice: {x}.",
        "{X}, and I'm not sure how to handle it. Can you help?", "What would you suggest? {X}.",
        "{X}. How should I approach this?", "So, {x}. What are my options?",
        "Can I get your honest opinion? {X}.", "{X}. Where do I even start?",
        "{X}. What would a sensible person do in my situation?",
    ], _SITUATIONS)
    return _greet(rng, _take(rng, pool, 320), 0.05)


# ---------------------------------------------------------------------------------------
# Definitions and word questions
# ---------------------------------------------------------------------------------------

_TERMS = [
    ("serendipity", "everyday English"), ("amortization", "finance"), ("idempotent", "programming"),
    ("hubris", "literature"), ("tariff", "economics"), ("latency", "computer networks"),
    ("epistemology", "philosophy"), ("biodiversity", "ecology"), ("quorum", "meetings"), ("umami", "cooking"),
    ("allele", "genetics"), ("escrow", "real estate"), ("hyperbole", "writing"), ("mitochondria", "biology"),
    ("liquidity", "finance"), ("firmware", "computing"), ("stoicism", "philosophy"), ("petrichor", "everyday English"),
    ("gerrymandering", "politics"), ("catalyst", "chemistry"), ("zeitgeist", "culture"), ("leverage", "business"),
    ("entropy", "information theory"), ("filibuster", "politics"), ("sonata", "music"), ("isotope", "chemistry"),
    ("metadata", "computing"), ("affidavit", "law"), ("palindrome", "language"), ("dividend", "investing"),
    ("onomatopoeia", "language"), ("tectonic plate", "geology"), ("haiku", "poetry"), ("deflation", "economics"),
    ("encryption", "cybersecurity"), ("vaccine", "medicine"), ("photosynthesis", "biology"), ("kerning", "typography"),
    ("chiaroscuro", "painting"), ("gradient descent", "machine learning"), ("habeas corpus", "law"),
    ("schadenfreude", "everyday English"), ("ennui", "everyday English"), ("recursion", "programming"),
    ("inertia", "physics"), ("sous-vide", "cooking"), ("syncopation", "music"), ("mise en place", "cooking"),
    ("the fourth wall", "theatre"), ("a blue-chip stock", "investing"), ("API", "software"), ("median", "statistics"),
    ("overfitting", "machine learning"), ("estuary", "geography"), ("photosphere", "astronomy"), ("sonnet", "poetry"),
    ("precedent", "law"), ("ecosystem", "ecology"), ("bandwidth", "computer networks"), ("equity", "finance"),
]


@_category("definition", "definitions, meanings, etymology and usage of words and terms")
def _gen_definition(rng: random.Random) -> list[str]:
    pool = _fill([
        "What does '{x}' mean?", "Define {x}.", "What is the meaning of the word '{x}'?", "define {x}",
        "Can you give me a definition of {x} and use it in a sentence?", "What does the term {x} mean in {y}?",
        "How would you explain the word '{x}' to a child?", "What's the origin of the word '{x}'?",
        "{x}: what does it mean?", "I came across the word '{x}' while reading about {y}. What does it mean?",
        "Give me a one-line definition of {x} and a longer explanation.", "In {y}, what does '{x}' refer to?",
    ], _TERMS)
    return _take(rng, pool, 320)


# ---------------------------------------------------------------------------------------
# Reasoning puzzles (names, numbers and orderings drawn from the category's seeded rng)
# ---------------------------------------------------------------------------------------

_COMPARATIVES = [("taller", "shortest", "tallest"), ("older", "youngest", "oldest"), ("faster", "slowest", "fastest"),
                 ("heavier", "lightest", "heaviest"), ("richer", "poorest", "richest")]
_SYLLOGISMS = [
    ("cats", "mammals", "pets"), ("roses", "flowers", "red things"), ("squares", "rectangles", "blue shapes"),
    ("doctors", "graduates", "musicians"), ("whales", "mammals", "animals that live in the sea"),
    ("poets", "writers", "teachers"), ("trout", "fish", "animals found in rivers"), ("violins", "instruments", "antiques"),
    ("sparrows", "birds", "animals that can fly"), ("oaks", "trees", "evergreens"),
]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_REASON_SUFFIX = ["Explain your reasoning.", "Think it through step by step.", "Show how you got the answer.",
                  "Explain briefly.", "Is there more than one possible answer?"]


def _sequence(rng: random.Random) -> str:
    kind = rng.randrange(5)
    a, d = rng.randint(1, 20), rng.randint(2, 9)
    if kind == 0:
        seq = [a + d * i for i in range(5)]
    elif kind == 1:
        seq = [a * d**i for i in range(5)] if a < 5 else [d**i for i in range(1, 6)]
    elif kind == 2:
        seq = [(i + a) ** 2 for i in range(5)]
    elif kind == 3:
        seq = [a, a + d]
        while len(seq) < 6:
            seq.append(seq[-1] + seq[-2])
    else:
        seq = [a + i * (i + 1) // 2 * d for i in range(5)]
    return ", ".join(map(str, seq))


def _puzzle(rng: random.Random, kind: int) -> str:
    names = rng.sample(_NAMES, 4)
    a, b, c, d = names
    more, least, most = rng.choice(_COMPARATIVES)
    r = rng.randint
    puzzles = [
        lambda: f"{a} is {more} than {b}, and {b} is {more} than {c}. Who is the {least}?",
        lambda: f"{a} is {more} than {b}. {c} is {more} than {a} but not {more} than {d}. Who is the {most}?",
        lambda: (lambda x, y, z: f"All {x} are {y}. Some {y} are {z}. Does it follow that some {x} are {z}?")(
            *rng.choice(_SYLLOGISMS)),
        lambda: (lambda x, y, z: f"If all {x} are {y} and no {y} are {z}, can any {x} be {z}?")(*rng.choice(_SYLLOGISMS)),
        lambda: f"What is the next number in the sequence {_sequence(rng)}, ...?",
        lambda: f"Find the pattern and give the next two terms: {_sequence(rng)}",
        lambda: (lambda n, m: f"If {n} machines take {m} minutes to make {n} widgets, how long would {n * 20} machines "
                 f"take to make {n * 20} widgets?")(r(3, 9), r(3, 12)),
        lambda: (lambda diff, y: f"A bat and a ball cost ${diff + 2 * y / 100:.2f} in total. The bat costs ${diff:.2f} more than "
                 "the ball. How much does the ball cost?")(r(1, 5), r(5, 60)),
        lambda: f"If today is {rng.choice(_DAYS)}, what day of the week will it be in {r(10, 400)} days?",
        lambda: f"What is the angle between the hour and minute hands of a clock at {r(1, 12)}:{rng.choice(['00', '15', '20', '30', '45', '50'])}?",
        lambda: (lambda a: f"{a} is a girl with {r(2, 6)} brothers. Each of her brothers has {r(2, 4)} sisters. How many sisters "
                 f"does {a} have, and how many children are in the family?")(rng.choice(_GIRLS)),
        lambda: (f"Three boxes are labelled 'apples', 'oranges' and 'mixed', and every label is wrong. You may take one "
                 f"fruit from one box. How do you relabel them correctly? {a} says it's impossible; is that right?"),
        lambda: (f"{a}, {b} and {c} each own a different pet: a cat, a dog and a parrot. {a} is allergic to fur. {b} "
                 f"walks the pet every morning. Who owns which pet?"),
        lambda: f"A lily pad patch doubles in size every day and covers the whole pond on day {r(20, 60)}. On which day did it cover half the pond?",
        lambda: (f"On an island, knights always tell the truth and knaves always lie. {a} says: '{b} and I are both knaves.' "
                 f"What are {a} and {b}?"),
        lambda: (f"I have {r(2, 9)} pairs of black socks and {r(2, 9)} pairs of white socks mixed in a drawer. In the dark, "
                 "how many socks must I take out to be sure of getting a matching pair?"),
        lambda: f"How many times a day do the hands of a clock overlap? {a} says 24. Is that right?",
        lambda: (f"{a} is {r(20, 40)} and {a}'s son is {r(2, 12)}. In how many years will {a} be exactly "
                 f"{rng.choice(['twice', 'three times'])} the son's age, if ever?"),
        lambda: (f"{a} has to take a wolf, a goat and a cabbage across a river in a boat that carries {a} and only one "
                 f"other item. How can {a} get everything across without anything being eaten?"),
        lambda: (f"In a race, {a} overtakes the person in {rng.choice(['second', 'third', 'last'])} place. What position is {a} in now?"),
        lambda: (f"{a} says: 'If it rains, I take the bus.' Today {a} took the bus. Does that mean it rained?"),
        lambda: (f"There are {r(20, 60)} people at a party and everyone shakes hands with everyone else once. How many "
                 "handshakes happen?"),
        lambda: f"Which is larger: 2^{r(20, 60)} or 3^{r(12, 40)}? Explain without computing them exactly.",
        lambda: (f"A {rng.choice(['frog', 'beetle', 'lizard'])} sits at the foot of a {r(10, 30)}-metre pole. By day it gains "
                 f"{r(3, 6)} metres, by night it loses {rng.choice(['one', 'two'])}. After how many days is it at the top?"),
        lambda: (f"Four friends, {a}, {b}, {c} and {d}, sit in a row. {a} is not at either end. {b} sits immediately to the "
                 f"right of {c}. {d} is at the far left. What is the order?"),
    ]
    return puzzles[kind]()


@_category("reasoning", "logic puzzles, riddles, sequences and trick questions")
def _gen_reasoning(rng: random.Random) -> list[str]:
    kinds = 25
    out = [_puzzle(rng, k % kinds) for k in range(kinds * 16)]
    return _take(rng, _decorate(rng, out, _REASON_SUFFIX, 0.4), 340)


# ---------------------------------------------------------------------------------------
# Planning and scheduling
# ---------------------------------------------------------------------------------------

_TRIP_PLACES = ["Rome", "Tokyo", "the Lake District", "Mexico City", "Cape Cod", "Seoul", "Barcelona", "Vancouver",
                "Crete", "Hanoi", "Prague", "Buenos Aires", "the Isle of Skye", "Morocco's Atlas Mountains", "Copenhagen",
                "Sri Lanka", "the Amalfi Coast", "Yellowstone", "Berlin", "Kerala"]
_TRAVELLERS = ["a family with two young kids", "a couple on a tight budget", "a solo traveller who loves food",
               "a group of students", "retired parents who don't like walking too much", "someone who uses a wheelchair",
               "a photographer", "friends celebrating a birthday"]
_PLANS = [  # things to plan, phrased to follow "help me plan"
    "a week of vegetarian dinners for a family of four", "my revision for final exams in six weeks",
    "ten weeks of training for my first 5K", "a birthday party for a seven-year-old who loves dinosaurs",
    "a one-hour project kickoff meeting", "my budget for the first month living alone",
    "a week of packed lunches for a picky eater", "a morning routine that gets me to work on time",
    "a weekend of deep-cleaning my whole flat", "three months of learning basic Spanish",
    "a small garden with vegetables and flowers", "a team-building day for fifteen people",
    "a year-long reading challenge", "a 30-day reduction in my screen time", "a wedding for fifty guests on a small budget",
    "the first week of onboarding for a new employee", "my GCSE science revision",
    "a beginner strength programme, three days a week", "a dinner party for eight guests",
    "a house move with two kids and a cat", "a fundraising bake sale at my kids' school", "my week so I have time to exercise",
    "a surprise anniversary dinner", "a community litter-picking day", "a month of saving for a holiday",
]


@_category("planning", "plans, itineraries, schedules, agendas and budgets")
def _gen_planning(rng: random.Random) -> list[str]:
    trips = _fill([
        "Plan a {z}-day trip to {x} for {y}.", "Can you suggest a {z}-day itinerary in {x} for {y}?",
        "I'm going to {x} for {z} days with {y}. What should we do each day?",
        "Make a day-by-day plan for {z} days in {x}. We are {y}.",
    ], [(p, t, str(d)) for p in _TRIP_PLACES for t in _TRAVELLERS for d in (2, 3, 4, 5, 7)])
    trips = [t.replace("We are someone", "I am someone").replace("We are a photographer", "I am a photographer")
             .replace("We are a solo", "I am a solo").replace("with a solo traveller who loves food", "on my own")
             .replace("with someone who uses a wheelchair", "with my friend who uses a wheelchair")
             .replace("with a family with two young kids", "with my partner and our two young kids")
             .replace("with a photographer", "with a photographer friend") for t in trips]
    plans = _fill([
        "Help me plan {x}.", "Can you help me organise {x}?", "I need to plan {x}. Where should I start?",
        "Draft a plan for {x}, and explain your choices.", "Put together a simple plan for {x} as a table.",
        "help me plan {x}", "What would a realistic plan for {x} look like?", "Create a checklist for {x}.",
        "Could you sketch out a timeline for {x}?",
    ], _PLANS)
    return _take(rng, trips, 140) + _take(rng, plans, 160)


# ---------------------------------------------------------------------------------------
# Opinions, arguments and debates
# ---------------------------------------------------------------------------------------

_DEBATES = [
    "a four-day work week", "banning cars from city centres", "school uniforms", "universal basic income",
    "abolishing daylight saving time", "making voting compulsory", "free public transport", "a tax on sugary drinks",
    "nuclear power as a climate solution", "banning homework for young children", "lowering the voting age to 16",
    "a ban on single-use plastics", "zoos", "year-round schooling", "self-driving cars on public roads",
    "paying students for good grades", "remote work as the default", "space exploration funding",
    "a maximum wage", "banning mobile phones in schools", "tipping in restaurants", "open-plan offices",
    "standardised testing", "rewilding farmland", "e-scooter rental schemes", "a meat tax",
]


@_category("opinion", "arguments for and against, debates, persuasive writing and opinions")
def _gen_opinion(rng: random.Random) -> list[str]:
    pool = _fill([
        "What are the arguments for and against {x}?", "Write a persuasive paragraph in favour of {x}.",
        "Write a persuasive paragraph against {x}.", "Is {x} a good idea? Give both sides.",
        "What do you think about {x}?", "Give me the strongest case for {x}, then the strongest case against it.",
        "I have to debate {x} at school tomorrow. What points should I make for each side?",
        "Write a short opinion piece about {x}.", "What does the evidence say about {x}?",
        "Summarise the debate over {x} in a balanced way.", "Why are people so divided about {x}?",
        "Play devil's advocate: argue against {x}.",
    ], _DEBATES)
    return _take(rng, pool, 260)


# ---------------------------------------------------------------------------------------
# Text analysis: sentiment, classification, extraction, question answering
# ---------------------------------------------------------------------------------------

_REVIEWS = [
    "The hotel room was spotless and the view was incredible, but breakfast was overpriced.",
    "Absolutely terrible service. We waited an hour and the food was cold.",
    "The headphones are fine. Nothing special, but they do the job for the price.",
    "I've read this book three times and cried every time. A masterpiece.",
    "Delivery was quick, but the box was damaged and one glass was broken.",
    "Not sure how I feel about the ending. The first half was brilliant, though.",
    "This app crashes every time I try to upload a photo. Uninstalling.",
    "Great value for money. My kids love it and it survived being dropped down the stairs.",
    "The staff were rude and the room smelled of smoke. Never again.",
    "Honestly better than I expected. The battery lasts two days.",
    "The plot was predictable but the acting saved it.",
    "Five stars! The instructions were clear and it took ten minutes to set up.",
]
_TEXTS = [
    "On 3 March 2021, Dr Sarah Okafor presented her findings at the Lisbon conference, and on 12 April she joined the "
    "University of Toronto as a visiting professor.",
    "Please send the signed contract to James Whitfield at Harbour Logistics before Friday 5 May. The fee is 4,500 euros.",
    "The meeting between the mayor of Springfield and representatives of Greenway Energy took place on Tuesday at the "
    "town hall, where they discussed a new wind farm.",
    "Order #48213: two pairs of running shoes (size 42), one water bottle, shipped to 14 Elm Road, Leeds, on 9 June.",
    "Congratulations! You've won a $1,000 gift card. Click the link below and enter your bank details to claim your prize "
    "within 24 hours.",
    "Hi, this is Dana from the dentist's office confirming your appointment on Wednesday at 10:30. Reply YES to confirm.",
    "Flight BA 2490 from London Gatwick to Pisa departs at 07:15 from gate 23. Boarding closes 20 minutes before departure.",
    "The recipe calls for 200 g of flour, 2 eggs, 150 ml of milk, a pinch of salt and 30 g of melted butter.",
]
_ITEM_SETS = [
    "carrot, banana, spinach, apple, potato, mango, onion, grape", "oak, salmon, eagle, fern, shark, sparrow, pine, tuna",
    "copper, oxygen, gold, helium, iron, nitrogen, silver, neon", "violin, trumpet, cello, flute, harp, trombone, oboe",
    "Tokyo, Nile, Paris, Amazon, Cairo, Danube, Lima, Rhine", "Python, Excel, Java, Photoshop, Rust, Word, Go",
]


@_category("analysis", "sentiment, classification, information extraction and reading comprehension")
def _gen_analysis(rng: random.Random) -> list[str]:
    reviews = _fill([
        "Classify the sentiment of this review as positive, negative or mixed: \"{x}\"",
        "Is this review positive or negative? {x}", "What is the customer unhappy about, if anything? \"{x}\"",
        "Write a polite response from the business to this review: {x}",
        "Rate this review's sentiment from 1 to 5 and explain: {x}",
    ], _REVIEWS)
    texts = _fill([
        "Extract all the names, places and dates from this text:\n\n{x}", "Turn this into structured JSON:\n\n{x}",
        "What are the key facts in this message? {x}", "Is this message trustworthy? Why or why not?\n\n{x}",
        "Here is a piece of text:\n{x}\n\nList every number it mentions and what it refers to.",
        "Read this and write three comprehension questions about it, with answers:\n\n{x}",
    ], _TEXTS)
    sets = _fill([
        "Sort these into groups and name each group: {x}", "Which of these is the odd one out, and why? {x}",
        "Put these into a table with a column for the category: {x}",
    ], _ITEM_SETS)
    return reviews + texts + sets


# ---------------------------------------------------------------------------------------
# Cooking and recipes (ingredient combinations drawn from the category's seeded rng)
# ---------------------------------------------------------------------------------------

_DISHES = [
    "a simple tomato soup", "chicken curry", "vegetable lasagne", "banana bread", "pad thai", "shakshuka",
    "a Spanish omelette", "beef stew", "falafel", "mushroom risotto", "pancakes", "a lentil dal", "fish tacos",
    "a Greek salad", "chocolate chip cookies", "ramen from scratch", "a Sunday roast", "guacamole", "apple crumble",
    "fried rice", "minestrone", "a quiche", "hummus", "a stir-fry with tofu", "scones", "carrot cake",
    "chilli con carne", "gnocchi", "a Thai green curry", "paella", "French onion soup", "a berry smoothie bowl",
    "jollof rice", "pierogi", "a vegan burger", "lemon drizzle cake", "dumplings", "a frittata", "porridge",
]
_INGREDIENTS = [
    "eggs", "leftover rice", "a tin of chickpeas", "spinach", "half a cabbage", "chicken thighs", "feta",
    "sweet potatoes", "a bag of pasta", "tinned tomatoes", "an onion", "some mushrooms", "minced beef",
    "a block of tofu", "frozen peas", "yoghurt", "a few carrots", "cheddar", "bread that's going stale",
    "a can of coconut milk", "lentils", "bacon", "courgettes", "a lemon", "potatoes", "salmon fillets",
    "peppers", "ripe bananas", "oats", "ginger and garlic", "black beans", "tortillas", "a cauliflower",
]
_DIETS = ["vegan", "gluten-free", "dairy-free", "low-sugar", "vegetarian", "nut-free", "high-protein", "low-salt"]


@_category("cooking", "recipes, cooking techniques, substitutions and what-can-I-make questions")
def _gen_cooking(rng: random.Random) -> list[str]:
    dish = _fill([
        "Give me a recipe for {x}.", "How do I make {x}?", "What's the secret to really good {x}?",
        "Can you give me an easy recipe for {x} that serves four?", "recipe for {x} please",
        "I've never cooked {x} before. Walk me through it.", "How can I make {x} healthier?",
        "What goes wrong most often when people make {x}?", "What should I serve with {x}?",
    ], _DISHES)
    diet = _fill(["Can you give me a {y} version of {x}?", "How would I make {x} {y}?"],
                 [(d, t) for d in _DISHES for t in _DIETS])
    fridge = []
    templates = ["I have {a}, {b} and {c}. What can I make for dinner?", "What can I cook with {a}, {b} and {c}?",
                 "My fridge has {a}, {b} and {c} in it. Any ideas for lunch?",
                 "Suggest a quick meal using {a}, {b} and {c}.", "Is there a recipe that uses {a}, {b} and {c}?"]
    for _ in range(140):
        a, b, c = rng.sample(_INGREDIENTS, 3)
        fridge.append(rng.choice(templates).format(a=a, b=b, c=c))
    technique = _fill([
        "What can I use instead of {x} in a recipe?", "How long does {x} keep in the fridge?",
        "What's the best way to store {x}?",
    ], ["eggs", "buttermilk", "fresh herbs", "cooked rice", "soy sauce", "butter", "yoghurt", "an opened tin of coconut milk",
        "cream", "brown sugar", "lemon juice", "self-raising flour"])
    return _take(rng, dish, 140) + _take(rng, diet, 60) + fridge + _take(rng, technique, 30)


# ---------------------------------------------------------------------------------------
# Casual chat, recommendations and small talk
# ---------------------------------------------------------------------------------------

_BOOKS = ["The Hobbit", "Pride and Prejudice", "1984", "The Martian", "Little Women", "Dune", "The Kite Runner",
          "Sapiens", "Project Hail Mary", "Jane Eyre", "The Secret History", "Where the Crawdads Sing",
          "The Name of the Wind", "Educated", "Gone Girl", "The Remains of the Day", "Circe", "Station Eleven"]
_OCCASIONS_CHAT = ["a rainy Sunday afternoon", "a long train journey", "a family movie night", "a first date",
                   "a quiet night in alone", "a road trip with friends", "a lazy summer evening", "a sleepover with ten-year-olds"]
_FACT_TOPICS = ["octopuses", "the Moon", "honey", "the Roman Empire", "volcanoes", "elephants", "the human heart",
                "Antarctica", "coffee", "ants", "the Eiffel Tower", "sleep", "sharks", "chess", "the alphabet",
                "owls", "the Sahara", "bamboo", "penguins", "lightning", "tea", "crows", "the deep sea", "saturn's rings"]
_SMALL_TALK = [
    "Good morning! How are you today?", "Hi, can you help me with something?", "What can you do?",
    "Tell me a joke.", "I'm bored.", "Say something nice, I've had a rough day.", "What's a good question to ask you?",
    "Do you have a favourite book?", "Tell me a fun fact.", "Can you recommend a hobby?", "What should I have for dinner?",
    "I just got a new puppy!", "I passed my driving test today!", "I can't decide what to do this weekend.",
    "Cheer me up, please.", "What's something interesting I could learn in five minutes?", "hello", "thanks, that helped!",
    "Let's play a word game.", "Give me a random question to think about.", "Can we just chat for a bit?",
    "I'm feeling a bit lonely tonight.", "What's the weirdest animal you know about?", "Surprise me with a fact about space.",
]


@_category("chat", "casual conversation, small talk, recommendations and fun facts")
def _gen_chat(rng: random.Random) -> list[str]:
    books = _fill([
        "Can you recommend a book for someone who loved {x}?", "I just finished {x}. What should I read next?",
        "What's {x} about, without spoilers?", "Why is {x} so popular?", "Is {x} worth reading?",
    ], _BOOKS)
    occasions = _fill([
        "What's a good film to watch on {x}?", "Suggest some music for {x}.", "What games could we play on {x}?",
        "I need ideas for {x}.", "What snacks should I bring for {x}?",
    ], _OCCASIONS_CHAT)
    facts = _fill([
        "Tell me something interesting about {x}.", "Do you know any fun facts about {x}?",
        "What's the most surprising thing about {x}?", "Give me three weird facts about {x}.",
        "I'm giving a short talk to kids about {x}. What would fascinate them?",
    ], [t if t[0].islower() and not t.startswith("saturn") else t.replace("saturn", "Saturn") for t in _FACT_TOPICS])
    return _take(rng, books, 70) + occasions + _take(rng, facts, 110) + _SMALL_TALK


# ---------------------------------------------------------------------------------------
# Role-play and personas
# ---------------------------------------------------------------------------------------

_ROLES = [
    ("a job interviewer for a marketing role", "Ask me your first three questions."),
    ("a tour guide in ancient Rome", "Show me around the Forum."),
    ("a pirate captain", "Explain to your new crew how to read a compass."),
    ("a medieval knight", "Describe your morning routine."),
    ("a personal trainer", "Build me a warm-up routine for a morning run."),
    ("a Socratic tutor", "Help me figure out why the seasons happen by asking me questions."),
    ("a patient customer service agent", "A customer says their order arrived broken. Respond."),
    ("a sports commentator", "Commentate on me making a cup of tea."),
    ("a detective in 1940s Los Angeles", "Describe the client who just walked into your office."),
    ("a friendly robot from the future", "Explain what smartphones turned into."),
    ("a French waiter", "Take my order and recommend a dessert."),
    ("a nature documentary narrator", "Describe an office worker's lunch break."),
    ("a wise old librarian", "Recommend a book to a nervous teenager."),
    ("Shakespeare", "Give me advice about my group chat drama."),
    ("a travel agent", "Convince me to take a holiday in Finland in winter."),
    ("a strict but fair chess coach", "Review the opening move e4 for a beginner."),
    ("a museum curator", "Explain why a plain blue painting is in your gallery."),
    ("a kindly grandmother", "Tell me how you met grandpa."),
    ("an astronaut on the International Space Station", "Describe how you brush your teeth."),
    ("a cranky cat", "Review the new brand of cat food you were served."),
    ("a medieval town crier", "Announce that the bakery has a new type of bun."),
    ("a debate coach", "Give me feedback on the argument that cities should ban cars."),
    ("a language tutor", "Have a simple conversation with me in Spanish about my weekend, correcting my mistakes."),
    ("a fitness app", "Motivate me to get off the couch."),
    ("a Victorian butler", "Explain to me how to set a formal dinner table."),
    ("a veteran mountain guide", "Brief our group before tomorrow's climb."),
    ("a barista with strong opinions", "Tell me what's wrong with my usual order of a caramel latte."),
    ("a space mission controller", "Talk me through the last minute before launch."),
    ("an 1850s gold prospector", "Write a letter home to your sister."),
    ("a careers adviser", "I'm 17 and don't know what to study. Start the conversation."),
    ("a grumpy lighthouse keeper", "Complain about the tourists this summer."),
    ("a stand-up comedian", "Do two minutes on the self-checkout machines at supermarkets."),
    ("a children's TV presenter", "Introduce today's episode about recycling."),
    ("a hotel concierge", "I have one evening in town. What do you suggest?"),
    ("a salesperson at a used-car lot", "Try to sell me a very old hatchback."),
    ("a calm flight attendant", "Make the announcement before a bumpy descent."),
    ("a film critic", "Review an imaginary movie about a lost umbrella."),
    ("a park ranger", "Explain to campers how to store food safely around bears."),
    ("a therapist's receptionist", "Help me book a first appointment."),
    ("a dungeon master", "Start a fantasy adventure for me in a foggy harbour town."),
    ("a nervous first-time tour guide", "Welcome the group to the castle."),
    ("a famous chef judging a contest", "Give feedback on my slightly burnt lasagne."),
    ("an alien anthropologist", "Report back on what humans do at weddings."),
    ("a helpful IT support technician", "My laptop won't connect to the printer. Help me."),
    ("a radio DJ", "Introduce a song dedication from a listener to their grandmother."),
    ("a mediator", "Help two housemates agree on a cleaning schedule."),
    ("a ship's cook", "Tell me what's on the menu after three months at sea."),
    ("a chess piece", "Describe the game from the point of view of the white knight."),
]


@_category("roleplay", "role-play and persona prompts")
def _gen_roleplay(rng: random.Random) -> list[str]:
    pool = _fill([
        "You are {x}. {y}", "Pretend to be {x}. {y}", "Act as {x}. {y}", "Let's role-play. You're {x}. {y}",
        "Imagine you are {x}. {y}", "I want you to play {x}. {y}", "Stay in character as {x}. {y}",
        "Speak as if you were {x}. {y}",
    ], _ROLES)
    return _take(rng, pool, 260)


# ---------------------------------------------------------------------------------------
# Teaching material: quizzes, flashcards, lesson plans, practice questions
# ---------------------------------------------------------------------------------------

_SUBJECTS = [
    "the solar system", "fractions", "the French Revolution", "photosynthesis", "the human skeleton",
    "World War II", "volcanoes", "basic Spanish greetings", "the periodic table", "Shakespeare's Macbeth",
    "climate change", "simple machines", "the water cycle", "ancient Egypt", "probability", "the circulatory system",
    "electric circuits", "poetry techniques", "the Cold War", "world capitals", "the parts of a cell",
    "Python basics", "personal finance", "first aid", "the Tudors", "ecosystems", "Newton's laws", "map reading",
]
_LEVELS = ["Year 3 pupils", "a middle-school class", "high-school seniors", "adult beginners", "university freshmen",
           "eight-year-olds", "GCSE students", "a mixed-ability class"]


@_category("education", "quizzes, flashcards, lesson plans, worksheets and practice questions")
def _gen_education(rng: random.Random) -> list[str]:
    pool = _fill([
        "Create a {z}-question quiz about {x} for {y}.", "Make flashcards covering {x} for {y}.",
        "Write a lesson plan on {x} for {y}.", "Give me {z} practice questions on {x}, with answers, for {y}.",
        "Design a fun classroom activity to teach {x} to {y}.", "What are the key points {y} should learn about {x}?",
        "Write a short worksheet on {x} for {y}, with an answer key.",
        "How can I make {x} interesting for {y}?",
    ], [(s, lvl, n) for s in _SUBJECTS for lvl in _LEVELS for n in ("five", "ten", "8")])
    self_study = _fill([
        "Quiz me on {x}.", "I'm revising {x}. Test me with some questions, one at a time.",
        "What's the best way to revise {x}?", "Make me a one-page study guide on {x}.",
    ], _SUBJECTS)
    return _take(rng, pool, 220) + _take(rng, self_study, 70)


# ---------------------------------------------------------------------------------------
# Workplace and business writing
# ---------------------------------------------------------------------------------------

_JOBS = ["barista", "data analyst", "warehouse operative", "junior accountant", "community manager", "nursery teacher",
         "UX designer", "delivery driver", "receptionist at a dental clinic", "backend engineer", "event coordinator",
         "customer support agent", "sous chef", "social media intern", "lab technician", "bookkeeper"]
_PRODUCTS = ["a bamboo toothbrush", "a smart water bottle that reminds you to drink", "a foldable electric bike",
             "a board game about saving the bees", "noise-cancelling earmuffs for toddlers", "a handmade leather wallet",
             "a budgeting app for students", "a cast-iron Dutch oven", "an ergonomic office chair",
             "a subscription box of world snacks", "a solar-powered phone charger", "a plant-based protein bar",
             "a weighted blanket", "a language-learning podcast", "a waterproof hiking jacket"]
_NEWS = ["our bakery opening a second branch", "a new partnership with a local hospital", "the launch of our mobile app",
         "a record year for our charity's fundraising", "our company going fully remote", "a new CEO joining the company",
         "winning a regional sustainability award", "a free summer coding camp for teenagers"]


@_category("work", "job ads, product descriptions, press releases, reports, agendas and other business writing")
def _gen_work(rng: random.Random) -> list[str]:
    jobs = _fill([
        "Write a job description for a {x}.", "What interview questions should I ask a candidate for a {x} role?",
        "Write a job ad for a part-time {x}. Keep it friendly.", "What skills should a good {x} have?",
        "Draft a 30-60-90 day plan for a new {x}.",
    ], _JOBS)
    products = _fill([
        "Write a product description for {x}.", "Write three short ad headlines for {x}.",
        "Who is the target customer for {x}, and how should we market it?", "Write an FAQ section for {x}.",
        "Write a short Amazon listing for {x}, with bullet points.", "Give me a name and a launch tweet for {x}.",
    ], _PRODUCTS)
    news = _fill([
        "Write a press release announcing {x}.", "Write a LinkedIn post about {x}.",
        "Draft an internal announcement about {x}.", "Write a short newsletter item about {x}.",
    ], _NEWS)
    misc = [
        "Write an agenda for a quarterly planning meeting.", "How do I write a good executive summary?",
        "Create a template for weekly status reports.", "What should go into a simple business plan?",
        "Write a polite reminder to staff about keeping the shared kitchen clean.",
        "Draft a customer satisfaction survey with ten questions.", "Write a SWOT analysis for a small independent bookshop.",
        "What are good KPIs for a customer support team?", "Write a short mission statement for a community garden.",
        "How should I structure a one-on-one meeting with someone on my team?",
        "Write a brief incident report about a server outage that lasted two hours.",
        "Create an onboarding checklist for a new remote employee.",
    ]
    return _take(rng, jobs, 70) + _take(rng, products, 80) + news + misc


# ---------------------------------------------------------------------------------------
# Data formatting, spreadsheets, regular expressions and the command line
# ---------------------------------------------------------------------------------------

_SPREADSHEET_TASKS = [
    "adds up column B only where column A says 'paid'", "counts how many cells in a range are above 100",
    "looks up a product's price from another sheet by its code", "calculates someone's age from their date of birth",
    "highlights duplicate values in a column", "splits a full name into first and last name",
    "returns the last non-empty value in a column", "averages the top three scores in a row",
    "converts a date into the day of the week", "rounds prices up to the nearest 0.99",
    "calculates the number of working days between two dates", "joins a first and last name with a space",
]
_REGEX_TASKS = [
    "matches a UK postcode", "finds all hashtags in a tweet", "validates a 24-hour time like 23:59",
    "extracts the domain from a URL", "matches a hex colour code", "finds repeated words like 'the the'",
    "matches dates in the format DD/MM/YYYY", "checks that a password has a digit and an uppercase letter",
    "strips HTML tags from a string", "matches an IPv4 address",
]
_SHELL_TASKS = [
    "finds all files modified in the last day", "counts the lines in every Python file in a project",
    "replaces a word in every text file in a folder", "shows which process is using port 8080",
    "lists the ten biggest directories", "renames files to lowercase", "downloads a file and checks its checksum",
    "compresses a folder into a tar.gz archive", "shows disk usage in a human-readable form",
    "prints the unique IP addresses in an access log",
]
_RAW_DATA = [
    "name, age, city\nAna, 31, Porto\nLiam, 25, Dublin\nMei, 42, Taipei",
    "apples 3 1.20\nbread 1 2.50\nmilk 2 0.95\ncheese 1 4.10",
    "Mon: 7h sleep, 5k steps; Tue: 6h sleep, 9k steps; Wed: 8h sleep, 3k steps",
    '{"user": "kai", "roles": ["admin", "editor"], "active": true}',
    "Team A beat Team B 3-1, Team C drew with Team A 2-2, Team B beat Team C 1-0",
]


@_category("data", "spreadsheet formulas, regular expressions, shell commands and data conversion")
def _gen_data(rng: random.Random) -> list[str]:
    sheet = _fill([
        "Write an Excel formula that {x}.", "In Google Sheets, how do I write a formula that {x}?",
        "I need a spreadsheet formula that {x}. Can you explain how it works?",
    ], _SPREADSHEET_TASKS)
    regex = _fill(["Write a regular expression that {x}.", "What regex {x}? Please explain each part.",
                   "Give me a Python regex that {x}, with examples that should and shouldn't match."], _REGEX_TASKS)
    shell = _fill(["Give me a shell command that {x}.", "On Linux, how do I run a command that {x}?",
                   "What's a one-liner that {x}?"], _SHELL_TASKS)
    convert = _fill([
        "Convert this into a Markdown table:\n\n{x}", "Turn this data into JSON:\n{x}",
        "What patterns do you notice in this data?\n\n{x}", "Turn this into a CSV file with headers:\n{x}",
        "Here is some data:\n{x}\n\nSummarise it in two sentences.",
    ], _RAW_DATA)
    return sheet + regex + shell + convert


# ---------------------------------------------------------------------------------------
# Everyday domains: everyday domains the first 25 categories touch only in passing
# (health, travel, device trouble, money, hobbies, home, pets, language use, hypotheticals,
# two-part requests). Held-out acceptance grows with the number of distinct prompts
# answered, so breadth pays.
# ---------------------------------------------------------------------------------------

_HEALTH_TOPICS = [
    "getting better sleep", "drinking enough water", "stretching after a run", "reducing screen time before bed",
    "eating more vegetables", "cutting down on sugar", "starting to lift weights", "walking 10,000 steps a day",
    "managing stress at work", "sitting less during the day", "eating breakfast", "intermittent fasting",
    "taking cold showers", "meditating for ten minutes a day", "improving posture at a desk",
    "eating more fibre", "avoiding the afternoon slump", "keeping fit while travelling",
    "recovering after a long hike", "building a running habit", "swimming for fitness", "staying active in winter",
    "eating less processed food", "cooking healthy meals on a budget", "cutting back on caffeine", "napping during the day",
    "warming up before football", "doing yoga as a beginner", "looking after your eyes when you read a lot",
    "keeping your joints healthy as you age", "cycling to work", "building core strength", "reducing salt",
    "staying hydrated in hot weather", "getting enough vitamin D in winter", "eating mindfully",
]
_BODY_QUESTIONS = [
    "Why do my muscles ache two days after exercise rather than the next day?",
    "Why do I feel sleepy after a big lunch?", "What actually happens when you crack your knuckles?",
    "Why does my stomach rumble when I'm hungry?", "Why do my ears pop on a plane?",
    "How long does it take to form a new habit?", "Why does a cold make food taste of nothing?",
    "Is it bad to exercise right before going to bed?", "How much sleep does a teenager need?",
    "Why do we get a stitch in our side when running?", "What is a healthy resting heart rate?",
    "Why do onions make my eyes water?", "Why do I get cramp in my calf at night?",
    "Why do some people need more sleep than others?", "Why does spicy food make my nose run?",
    "Why do my fingers go wrinkly in the bath?", "Is stretching before running actually useful?",
    "Why does my heart beat faster when I'm nervous?", "What does a calorie actually measure?",
    "Why do I get a headache when I skip my morning coffee?", "How does the body keep a steady temperature?",
    "Why are some people morning people and others night owls?", "What happens to the body during a fever?",
    "Why does sitting all day make my back stiff?", "Why do we shiver when we're cold?",
]
_FITNESS_GOALS = [
    ("run my first 5K", "eight weeks"), ("do ten push-ups in a row", "a month"), ("touch my toes", "six weeks"),
    ("swim a kilometre without stopping", "three months"), ("hike a mountain", "the summer"),
    ("cycle 50 km in a day", "two months"), ("do a pull-up", "ten weeks"), ("hold a plank for two minutes", "a month"),
    ("get back into shape after having a baby", "six months"), ("play a full football match again", "the season"),
    ("walk up the stairs at work without getting out of breath", "a month"), ("run a half marathon", "four months"),
]


@_category("health", "everyday health, sleep, fitness and nutrition questions (general information, not diagnosis)")
def _gen_health(rng: random.Random) -> list[str]:
    topics = _fill([
        "What are some tips for {x}?", "Is {x} really worth the effort?", "How do I get started with {x}?",
        "What does the research say about {x}?", "My doctor suggested {x}. How do I make it stick?",
        "Give me a simple weekly plan for {x}.", "What are the common mistakes people make with {x}?",
        "I keep failing at {x}. Any advice?", "Explain the benefits of {x} in plain language.",
        "what's the easiest way to begin {x}", "Write a short motivational note about {x}.",
    ], _HEALTH_TOPICS)
    goals = _fill([
        "I want to {x} in {y}. How should I train?", "Make me a training plan to {x} within {y}.",
        "Is it realistic to {x} in {y} if I'm starting from nothing?",
        "What should I eat while training to {x}?", "How do I stay motivated while I work towards being able to {x}?",
    ], _FITNESS_GOALS)
    return _persona(rng, _take(rng, topics, 230) + goals + _BODY_QUESTIONS, 0.12)


_DESTINATIONS = [
    "Lisbon", "Tokyo", "Mexico City", "Edinburgh", "Vienna", "Hanoi", "Buenos Aires", "Copenhagen", "Seoul",
    "Cape Town", "Montreal", "Marrakesh", "Prague", "Bangkok", "Reykjavik", "Dubrovnik", "Lima", "Kraków",
    "Singapore", "Istanbul", "Barcelona", "Nairobi", "Oslo", "Havana", "Budapest", "Sydney", "Naples",
    "Seville", "Porto", "Bruges", "Taipei", "Vancouver", "Athens", "Cusco", "Valletta", "Tallinn",
]
_TRIP_KINDS = [
    "a long weekend", "a week with two small children", "a honeymoon", "a solo trip on a small budget",
    "a rainy week in November", "a work trip with one free afternoon", "a trip with my elderly parents",
    "five days without a car", "a food-focused trip", "a first trip abroad",
]
_TRAVEL_QUESTIONS = [
    "How do I beat jet lag after a long flight east?", "What should I do if my luggage gets lost?",
    "Is travel insurance worth it for a short trip?", "How early should I get to the airport for an international flight?",
    "What are some tips for sleeping on a night train?", "How do I avoid tourist traps when eating out abroad?",
    "How do I pack for two weeks with only carry-on luggage?", "What should I know before renting a car abroad?",
    "Is it better to exchange money before I travel or when I arrive?", "How do I travel with a dog by train?",
    "What can I do on a twelve-hour layover?", "How can I make a long-haul flight more comfortable?",
    "What's the best way to find cheap flights?", "How do I stay safe when travelling alone?",
    "What documents do I need to keep copies of when travelling?", "How do I deal with altitude sickness?",
    "Should I book hotels in advance or find them as I go?", "How do I keep my phone charged while backpacking?",
    "What's the etiquette for tipping when you travel?", "How do I plan a road trip with kids without losing my mind?",
]


@_category("travel", "trip planning, destinations, transport and practical travel questions")
def _gen_travel(rng: random.Random) -> list[str]:
    trips = _fill([
        "We're going to {x} for {y}. What should we see?", "Plan {y} in {x} for me.",
        "Is {x} a good choice for {y}?", "What should I pack for {y} in {x}?",
        "Where should we stay in {x} for {y}?",
    ], [(d, t) for d in _DESTINATIONS for t in _TRIP_KINDS])
    places = _fill([
        "What's the best time of year to visit {x}?", "What food should I try in {x}?",
        "How do I get around {x} without a car?", "What are the local customs I should know about before visiting {x}?",
        "What's a day trip worth taking from {x}?", "Is {x} expensive to visit?",
        "What's something most tourists miss in {x}?", "what neighbourhood in {x} is good for a first visit",
    ], _DESTINATIONS)
    return _take(rng, trips, 150) + _greet(rng, _take(rng, places, 150) + _TRAVEL_QUESTIONS, 0.08)


_GADGETS = [
    "laptop", "phone", "printer", "smart TV", "Wi-Fi router", "wireless earbuds", "tablet", "games console",
    "smartwatch", "Bluetooth speaker", "desktop computer", "e-reader", "webcam", "external hard drive",
]
_GADGET_PROBLEMS = [
    "keeps disconnecting from the Wi-Fi", "won't turn on", "is running really slowly", "gets very hot",
    "won't charge", "has no sound", "keeps restarting by itself", "says the storage is full",
    "won't pair over Bluetooth", "shows a black screen", "drains its battery in a few hours",
    "makes a clicking noise", "won't update", "froze during an update",
]
_SOFTWARE_TASKS = [
    "back up my photos", "move everything from my old phone to a new one", "set up two-factor authentication",
    "free up space on my laptop", "stop apps from starting when my computer boots", "find my saved Wi-Fi password",
    "make my browser stop showing pop-ups", "set up parental controls", "recover a document I closed without saving",
    "share a large file with someone", "create a strong password I can remember", "get rid of spam emails",
    "change my default browser", "take a screenshot of a whole web page", "turn on dark mode",
    "stop my phone tracking my location", "convert a Word file to PDF", "reset my router",
    "set up a printer for the whole family", "know if an email is a phishing attempt",
]


@_category("techsupport", "everyday device and software troubleshooting and set-up")
def _gen_techsupport(rng: random.Random) -> list[str]:
    broken = _fill([
        "My {x} {y}. What can I do?", "Help! My {x} {y}.", "why does my {x} keep doing this: it {y}",
        "My {x} {y}. Is it worth repairing or should I replace it?", "What could cause a {x} that {y}?",
        "My {x} {y}. Walk me through fixing it step by step.",
    ], [(g, p) for g in _GADGETS for p in _GADGET_PROBLEMS])
    howto = _fill([
        "How do I {x}?", "What's the easiest way to {x}?", "Can you explain how to {x} for someone who isn't techy?",
        "I need to {x} on Windows. Where do I start?", "How do I {x} on a Mac?", "how to {x} on android",
    ], _SOFTWARE_TASKS)
    return _persona(rng, _take(rng, broken, 200) + _take(rng, howto, 110), 0.15)


_MONEY_TOPICS = [
    "an emergency fund", "index funds", "compound interest", "a pension", "a mortgage", "credit card debt",
    "a budget", "inflation", "a savings account", "student loans", "buying versus renting a home",
    "paying off debt with the snowball method", "diversification", "a credit score", "the 50/30/20 rule",
    "stocks versus bonds", "an ISA", "dividends", "a car loan", "a fixed versus a variable interest rate",
    "insurance excess", "tax refunds", "a sinking fund", "lifestyle inflation",
]
_MONEY_SITUATIONS = [
    "I just got my first full-time job", "I have three credit cards with balances", "I want to save for a house deposit",
    "I got a bonus of 5,000", "my partner and I want to combine our finances", "I'm self-employed with irregular income",
    "I'm 55 and have almost no retirement savings", "I want to take a year off to travel",
    "I keep running out of money before payday", "I'm about to become a parent", "I inherited some money",
    "I'm a student living on a loan", "I want to start investing with 100 a month", "I lost my job last week",
]


@_category("money", "personal finance: saving, budgeting, debt, investing basics and money situations")
def _gen_money(rng: random.Random) -> list[str]:
    concepts = _fill([
        "Explain {x} like I'm new to managing money.", "What are the pros and cons of {x}?",
        "What should a beginner know about {x}?", "Why do people talk so much about {x}?",
        "Can you explain {x} with a simple example?", "What's a common misunderstanding about {x}?",
    ], _MONEY_TOPICS)
    situations = _fill([
        "{X}. What should I do with my money?", "{X}. How should I budget?", "{X}. What should I prioritise first?",
        "{X}. What mistakes should I avoid?", "Give me a simple plan: {x}.",
    ], _MONEY_SITUATIONS)
    return _take(rng, concepts, 110) + situations


_HOBBIES = [
    "watercolour painting", "knitting", "birdwatching", "chess", "rock climbing", "sourdough baking",
    "photography", "playing the ukulele", "learning the guitar", "woodworking", "pottery", "gardening",
    "calligraphy", "running", "sketching", "fishing", "baking bread", "bouldering", "origami", "stargazing",
    "writing poetry", "playing the piano", "sewing", "home brewing kombucha", "skateboarding", "crochet",
    "surfing", "juggling", "bonsai", "model railways", "journaling", "dancing salsa", "geocaching",
    "board game design", "beekeeping", "embroidery", "film photography", "magic tricks", "kayaking",
]


@_category("hobbies", "starting, learning and enjoying hobbies, crafts, sports and games")
def _gen_hobbies(rng: random.Random) -> list[str]:
    pool = _fill([
        "I want to get into {x}. What do I need to buy?", "How long does it take to get decent at {x}?",
        "What's a good first project for {x}?", "Give me a four-week plan to get started with {x}.",
        "What are the beginner mistakes in {x}?", "Is {x} an expensive hobby?", "How can I get better at {x} faster?",
        "What's a fun challenge for someone who has done {x} for a year?", "Is {x} a good hobby for someone who is very busy?",
        "How do I find people to do {x} with?", "i'm bored of {x}. how do i get my motivation back",
        "Can you explain the basic techniques of {x}?", "What are some good resources for learning {x}?",
    ], _HOBBIES)
    return _greet(rng, _take(rng, pool, 330), 0.08)


_HOME_JOBS = [
    "unblock a sink", "fix a dripping tap", "get rid of mould in the bathroom", "paint a room",
    "hang a heavy mirror", "bleed a radiator", "remove a wine stain from carpet", "clean an oven",
    "stop a door from squeaking", "fill a hole in plaster", "descale a kettle", "clean grout",
    "get rid of fruit flies", "reduce condensation on windows", "fix a running toilet", "clean a mattress",
    "organise a small kitchen", "declutter a wardrobe", "get the smell out of a fridge", "put up shelves",
    "keep a house cool in a heatwave", "make a small flat feel bigger", "lower the heating bill",
    "clean a washing machine", "remove limescale from a shower head", "replace a light switch cover",
]
_PLANTS = [  # no articles: the templates say "my {x}" and "grow {x}"
    "spinach", "basil", "monstera", "succulents", "strawberries", "lavender", "lemon trees", "potatoes",
    "orchids", "fiddle-leaf figs", "roses", "chillies", "lettuce", "snake plants", "sunflowers", "garlic",
    "blueberries", "peace lilies", "courgettes", "mint",
]


@_category("home", "household jobs, cleaning, small repairs, organising and gardening")
def _gen_home(rng: random.Random) -> list[str]:
    jobs = _fill([
        "How do I {x}?", "What's the cheapest way to {x}?", "What tools do I need to {x}?",
        "I've never tried to {x} before. Talk me through it.", "how can i {x} without calling someone",
        "Is it safe to {x} myself?", "What's the quickest way to {x}?",
    ], _HOME_JOBS)
    plants = _fill([
        "How do I grow {x}?", "Why are my {x} wilting?", "How often should I water {x}?",
        "Can I grow {x} on a balcony?", "What's the best soil for {x}?", "When should I plant {x}?",
    ], _PLANTS)
    return _persona(rng, _take(rng, jobs, 150) + _take(rng, plants, 100), 0.1)


_PETS = [
    "a puppy", "an older cat", "a rabbit", "a hamster", "a rescue dog", "two guinea pigs", "a goldfish",
    "a parrot", "a kitten", "a bearded dragon", "a border collie", "a tortoise", "a ferret", "chickens",
]
_PET_QUESTIONS = [
    "How do I get {x} used to a new home?", "What should I feed {x}?", "How much exercise does {x} need?",
    "We're thinking about getting {x}. What should we know first?", "How do I keep {x} entertained while I'm at work?",
    "What are signs that {x} is unwell?", "How do I introduce {x} to my other pets?", "How much does it cost to keep {x}?",
    "How do I travel with {x}?", "Is {x} a good pet for a child?",
]
_ANIMAL_FACTS = [
    "Why do geese fly in a V?", "Why do dogs tilt their heads when you talk to them?", "Do fish sleep?",
    "Why do cats sleep so much of the day?", "Can dogs see colours?", "Why do dogs eat grass?",
    "Can parrots understand what they say?", "Why do cats bring dead mice home?", "How good is a dog's sense of smell?",
    "Why do rabbits thump their feet?", "Why does my dog follow me to the bathroom?", "Do tortoises recognise their owners?",
]


@_category("pets", "pet care, training and animal behaviour")
def _gen_pets(rng: random.Random) -> list[str]:
    return _persona(rng, _fill(_PET_QUESTIONS, _PETS) + _ANIMAL_FACTS, 0.1)


_USAGE_PAIRS = [
    ("affect", "effect"), ("bring", "take"), ("who", "whom"), ("its", "it's"), ("raise", "rise"),
    ("compliment", "complement"), ("principal", "principle"), ("further", "farther"), ("then", "than"),
    ("imply", "infer"), ("i.e.", "e.g."), ("stationary", "stationery"), ("discreet", "discrete"),
    ("ensure", "insure"), ("borrow", "lend"), ("historic", "historical"), ("continual", "continuous"),
    ("practice", "practise"), ("economic", "economical"), ("sensible", "sensitive"),
]
_GRAMMAR_POINTS = [
    "the present perfect", "the subjunctive", "a semicolon", "the Oxford comma", "a dangling modifier",
    "the passive voice", "a split infinitive", "phrasal verbs", "reported speech", "conditional sentences",
    "articles (a, an, the)", "the apostrophe", "a relative clause", "countable and uncountable nouns",
    "question tags", "the past continuous", "modal verbs", "a colon",
]
_LANGS_LEARN = ["Spanish", "Japanese", "German", "Italian", "Mandarin", "Arabic", "French", "Portuguese", "Korean", "Dutch"]


@_category("language", "grammar and usage questions, and advice on learning languages")
def _gen_language(rng: random.Random) -> list[str]:
    pairs = _fill([
        "What's the difference between '{x}' and '{y}'?", "When do I use '{x}' instead of '{y}'?",
        "I always mix up '{x}' and '{y}'. Is there a trick to remember?",
        "Can you give me example sentences with '{x}' and '{y}'?",
    ], _USAGE_PAIRS)
    grammar = _fill([
        "How do I use {x} correctly?", "Explain {x} with three examples.", "What's a common mistake with {x}?",
        "Can you make a short exercise to practise {x}?",
    ], _GRAMMAR_POINTS)
    learning = _fill([
        "How long would it take to learn {x} to a conversational level?", "What's the hardest part of learning {x} for an English speaker?",
        "I have 20 minutes a day. How should I study {x}?", "What should I learn first in {x}?",
        "How do I keep practising {x} when I don't know any native speakers?",
    ], _LANGS_LEARN)
    return _persona(rng, _take(rng, pairs, 70) + _take(rng, grammar, 60) + learning, 0.12)


_WHATIFS = [
    "the continents had never drifted apart", "humans could photosynthesise", "the internet went down for a month",
    "everyone could read each other's minds", "the Earth stopped spinning", "there were no more bees",
    "we discovered life on Europa", "money had never been invented", "everyone lived to 150",
    "cars had never been invented", "it never got dark", "all the ice on Earth melted", "we had a second sun",
    "animals could talk", "gravity were twice as strong", "there were no mobile phones",
    "the Roman Empire had never fallen", "everyone spoke the same language", "humans could hibernate",
    "we found a way to make clean energy free", "nobody needed to sleep", "the oceans were fresh water",
    "printing had never been invented", "dinosaurs had not gone extinct", "every job were done by robots",
    "we could travel faster than light", "the day were 30 hours long", "cats were the size of horses",
]


@_category("whatif", "hypothetical scenarios and thought experiments")
def _gen_whatif(rng: random.Random) -> list[str]:
    pool = _fill([
        "What would happen if {x}?", "Imagine {x}. How would daily life change?", "If {x}, what would be the first thing to go wrong?",
        "Write a short news report from a world where {x}.", "Would it be good or bad if {x}? Argue both sides.",
        "what if {x}", "Describe a normal school day if {x}.", "How would the economy adapt if {x}?",
    ], _WHATIFS)
    return _take(rng, pool, 200)


_FIRST_ASKS = [
    "Explain what a neural network is", "Tell me what causes the seasons", "Describe how vaccines work",
    "Summarise what happened at the Boston Tea Party", "Tell me how paper is made", "Tell me what a black hole is",
    "Explain why the sky is blue", "Describe what a startup incubator does", "Explain what inflation is",
    "Tell me how bread is made", "Explain how a compass finds north", "Describe the water cycle",
    "Explain what DNA does", "Tell me who the Vikings were", "Explain what a recession is",
    "Describe how a rainbow forms", "Explain the difference between weather and climate", "Tell me how bees make honey",
]
_SECOND_ASKS = [
    "then give me a one-sentence summary", "and then write three quiz questions about it",
    "then explain it again for a five-year-old", "and finish with a fun fact", "then list two common misconceptions",
    "and suggest what I should read next", "then turn it into a short poem", "and give an everyday analogy",
]


@_category("multipart", "requests with two parts: an explanation followed by a second task")
def _gen_multipart(rng: random.Random) -> list[str]:
    pool = [t.format(x=a, y=b, x_l=a[:1].lower() + a[1:])
            for t in ("{x}, {y}.", "Could you {x_l}, {y}?")
            for a in _FIRST_ASKS for b in _SECOND_ASKS]
    return _take(rng, pool, 220)


# ---------------------------------------------------------------------------------------
# One-off prompts written individually, to widen topics and phrasing beyond the templates
# ---------------------------------------------------------------------------------------

_ONE_OFFS = [
    "Why do old books smell the way they do?", "How did sailors avoid scurvy before anyone knew about vitamin C?",
    "What would happen if everyone on Earth jumped at the same moment?", "Why does my voice sound strange on recordings?",
    "Is it bad to charge my phone overnight?", "How are crayons made?", "Why do we get brain fog after a big lunch?",
    "Why do clocks run clockwise?", "What's the loudest animal on the planet?", "How do pilots land in thick fog?",
    "How does a lie detector work, and is it reliable?", "Why is the Leaning Tower of Pisa leaning?",
    "What is the oldest known recipe?", "Why are manhole covers round?", "How do chameleons change colour?",
    "Why do bubbles always look round?", "How are the numbers on a dartboard arranged, and why?",
    "What's the difference between a crow and a raven?", "Why do some people sneeze when they look at the sun?",
    "How many languages are spoken in the world today?", "Why is yawning contagious between dogs and humans?",
    "What's inside a golf ball?", "How did people make ice cream before freezers?",
    "Why does a cold drink get water on the outside of the glass?", "How do fireflies light up?",
    "Do plants sleep?", "Why is the ocean blue but a glass of seawater is clear?",
    "What makes popcorn pop?", "Why does helium make your voice squeaky?", "How long can a person hold their breath?",
    "Why did the Titanic sink so quickly?", "How do ants find their way back to the nest?",
    "What is the longest river in Europe?", "Who invented the sandwich, supposedly?",
    "Why do some trees lose their leaves in winter and others don't?", "How fast does a sneeze travel?",
    "Can you hear sound in space?", "What does a bee do with pollen?", "Why are flamingos pink?",
    "Is there a word for the fear of long words?", "How do touch-typing speeds compare to handwriting speeds?",
    "Write a thank-you message to a bus driver who waited for me when I was running late.",
    "Draft a sign for a shared office fridge that will actually make people label their food.",
    "Invent a sport that can be played in a swimming pool with a frisbee, and write its three basic rules.",
    "Describe a sunset on a planet with two suns.", "Write a love letter from a toaster to a slice of bread.",
    "Write an inspirational quote that sounds profound but is actually about sandwiches.",
    "Make up a folk tale that explains why owls stay awake at night.",
    "Write a four-line poem to put inside a graduation card for my niece.",
    "Write the weather forecast for a fantasy kingdom where it rains jelly beans on Tuesdays.",
    "Write a short review of the Moon as if it were a holiday destination.",
    "Give me a clever name for a cat café that also sells books.",
    "Write a motivational speech for a group of snails about to start a race.",
    "Come up with a secret handshake for a club of three best friends.",
    "Invent three new ice cream flavours and describe them like a wine expert.",
    "My houseplant is growing towards the window. Should I turn it?", "How often should I replace my toothbrush?",
    "How do I get my toddler to eat vegetables?", "Is it worth repairing a ten-year-old washing machine?",
    "What should I do if I lock myself out of my flat?", "How can I stop my glasses slipping down my nose?",
    "How do I politely tell a friend their singing is off-key before karaoke night?",
    "My bike chain keeps falling off. What's going on?", "What's a fair price to charge for babysitting?",
    "How do I get candle wax out of a tablecloth?", "What's the quickest way to thaw frozen chicken safely?",
    "How can I tell if my smoke alarm still works?", "What's the best way to wrap an awkwardly shaped present?",
    "Should I stretch before or after running?", "How do I stop my cat scratching the sofa?",
    "What's a good age to give a child pocket money, and how much?", "Is it okay to freeze bread?",
    "How should I clean a stainless steel sink so it shines?", "How do I stop my shoes from smelling?",
    "How do I write a birthday message for someone I barely know at work?",
    "In Python, what's the difference between a module and a package?",
    "Why does my JavaScript 'this' become undefined inside a callback?",
    "How do I exit Vim?", "What's the point of Docker if I already have virtual machines?",
    "Explain what a memory leak is and how to find one in a Node.js app.",
    "What's a good way to name git branches on a small team?",
    "How should I structure the folders of a small Flask web app?",
    "Is it a bad idea to store passwords in environment variables?", "How do I read a stack trace?",
    "What's the difference between a process's stack and its heap?", "Why is floating-point 0.1 + 0.2 not equal to 0.3?",
    "What does 'O(n log n)' mean in plain words?", "How do I make a website work well on phones?",
    "When should I use a database index, and when does it hurt?", "What is a race condition in a web shop checkout?",
    "Write a short function in any language that returns True on weekends.",
    "If I save 3 euros on Monday and double the amount each day, how much will I have saved by Sunday?",
    "How many squares are on a chessboard, counting every size?", "What's 17 squared, and is there a trick to do it in my head?",
    "A cake is cut into 8 equal slices and 3 friends each eat 2 slices. What fraction of the cake is left?",
    "How many times does the digit 7 appear when writing all the numbers from 1 to 100?",
    "I drive 60 km to work at 40 km/h and back at 60 km/h. What's my average speed for the round trip?",
    "Round 3.14159 to two decimal places and explain the rule for rounding fives.",
    "Why is any number to the power of zero equal to one?", "Is zero even, odd or neither?",
    "What's the largest prime number below 100?", "Why can't you divide by zero?",
    "Summarise the story of Cinderella in three sentences.", "Summarise the plot of Hamlet as a text message.",
    "Explain the main point of the fable of the tortoise and the hare, and whether it's true in real life.",
    "What's the moral of 'The Boy Who Cried Wolf'?", "Retell Little Red Riding Hood from the wolf's point of view.",
    "What was the Marshall Plan, in two sentences?", "Describe the Roman Colosseum in its prime, as an eyewitness might.",
    "Write a postcard from a medieval pilgrim to their family.",
    "Describe the morning routine of a lighthouse in the year 1900.",
    "What did people in the 1800s think the year 2000 would look like?",
    "Write a tweet from Galileo after he first looked at Jupiter's moons.",
    "Should I learn Spanish or Mandarin if I want to travel and maybe work abroad?",
    "Is a gap year a good idea before university?", "Are standing desks actually better for you?",
    "Is it better to rent a car or use public transport on a week in Scotland?",
    "Which is more environmentally friendly: paper bags or plastic bags?", "Should kids learn cursive handwriting?",
    "Cats or dogs, for a family with a small flat and long working hours?",
    "What questions should I ask before joining a startup?", "What are the signs that a job offer is a scam?",
    "How do I ask my boss to work from home two days a week?", "How do I recover after giving a bad presentation?",
    "What should go in a first-aid kit for the car?", "What should I pack for a week of hiking in the rain?",
    "List six board games that work well with two players.", "Name a few famous female scientists I should read about.",
    "Give me ideas for a cheap but memorable first anniversary.", "What are some good habits to start in January?",
    "Suggest five questions to get a quiet dinner-party guest talking.", "List some fun ways to learn the times tables.",
    "What are some good stretches for lower back pain from sitting?", "Give me a few ideas for a themed costume party.",
    "Tell me a knock-knock joke about a cow.", "What's the funniest way to announce I'm bringing a cake to the office?",
]


@_category("oneoff", "hand-written one-off questions and requests that follow no template")
def _gen_oneoff(rng: random.Random) -> list[str]:
    return list(_ONE_OFFS)


# ---------------------------------------------------------------------------------------
# Further topics: more distinct topics and wordings (science, history, law and civic
# life, relationships, careers, study, sports and games, the arts, the environment, cars,
# gardening and the outdoors, shopping, writing feedback, text transformation, developer
# help, numbers, trivia, marketing, events, philosophy, self-improvement and etiquette,
# wordplay, finance scenarios). Added because held-out agreement lagged training agreement.
# ---------------------------------------------------------------------------------------

_SCI_WHYS = [  # (question order, statement order)
    ("do stars twinkle", "stars twinkle"),
    ("do we always see the same side of the Moon", "we always see the same side of the Moon"),
    ("does Venus spin backwards", "Venus spins backwards"),
    ("is Pluto no longer a planet", "Pluto is no longer a planet"),
    ("do planets orbit in roughly the same plane", "the planets orbit in roughly the same plane"),
    ("does the Sun look orange at sunset", "the Sun looks orange at sunset"),
    ("do comets have tails", "comets have tails"),
    ("is Jupiter's Great Red Spot red", "Jupiter's Great Red Spot is red"),
    ("do astronauts float on the space station", "astronauts float on the space station"),
    ("is it cold at the top of a mountain if it's closer to the Sun",
     "it's cold at the top of a mountain even though it's closer to the Sun"),
    ("do volcanoes form in lines", "volcanoes form in lines"),
    ("is the Earth's core still hot", "the Earth's core is still hot"),
    ("do some rocks have stripes", "some rocks have stripes"),
    ("are there seashell fossils on mountaintops", "there are seashell fossils on mountaintops"),
    ("do geysers erupt on a schedule", "geysers erupt on a schedule"),
    ("is sand on some beaches black", "the sand on some beaches is black"),
    ("do caves have stalactites", "caves have stalactites"),
    ("are diamonds so hard", "diamonds are so hard"),
    ("do we have an appendix", "we have an appendix"),
    ("do onions make us cry", "onions make us cry"),
    ("do fingers wrinkle in the bath", "fingers wrinkle in the bath"),
    ("do we dream", "we dream"),
    ("do cats have vertical pupils", "cats have vertical pupils"),
    ("do birds fly in a V shape", "birds fly in a V shape"),
    ("do some animals hibernate", "some animals hibernate"),
    ("are there no penguins at the North Pole", "there are no penguins at the North Pole"),
    ("do mosquitoes bite some people more than others", "mosquitoes bite some people more than others"),
    ("can some trees live for thousands of years", "some trees can live for thousands of years"),
    ("do bananas turn brown", "bananas turn brown"),
    ("does a cut apple go brown", "a cut apple goes brown"),
    ("does salt melt ice", "salt melts ice"),
    ("does soap actually remove germs", "soap removes germs"),
    ("does baking soda react with vinegar", "baking soda reacts with vinegar"),
    ("is gold so unreactive", "gold is so unreactive"),
    ("does iron rust but stainless steel doesn't", "iron rusts but stainless steel doesn't"),
    ("do fireworks have different colours", "fireworks have different colours"),
    ("does water boil at a lower temperature at altitude", "water boils at a lower temperature at altitude"),
    ("does a spoon look bent in a glass of water", "a spoon looks bent in a glass of water"),
    ("do heavy and light objects fall at the same speed", "heavy and light objects fall at the same speed"),
    ("does a spinning top stay upright", "a spinning top stays upright"),
    ("can birds sit on power lines without getting a shock", "birds can sit on power lines without getting a shock"),
    ("does a balloon stick to the wall after you rub it on your hair",
     "a balloon sticks to the wall after you rub it on your hair"),
    ("do we see lightning before we hear thunder", "we see lightning before we hear thunder"),
    ("does a kettle get quieter just before it boils", "a kettle gets quieter just before it boils"),
    ("is the sea salty but rivers aren't", "the sea is salty but rivers aren't"),
    ("do leaves have veins", "leaves have veins"),
    ("do sunflowers follow the Sun", "young sunflowers follow the Sun"),
    ("do some plants eat insects", "some plants eat insects"),
    ("do mushrooms pop up after rain", "mushrooms pop up after rain"),
    ("is blood red but veins look blue", "blood is red but veins look blue"),
    ("do we get goosebumps when music moves us", "we get goosebumps when music moves us"),
    ("do whales sing", "whales sing"),
    ("do zebras have stripes", "zebras have stripes"),
    ("do octopuses have three hearts", "octopuses have three hearts"),
    ("are some clouds dark and others white", "some clouds are dark and others are white"),
    ("does lightning zigzag", "lightning zigzags"),
    ("does the horizon look flat from a beach", "the horizon looks flat from a beach"),
    ("does hot water sometimes freeze faster than cold", "hot water sometimes freezes faster than cold"),
    ("do ears pop on a plane", "our ears pop on a plane"),
    ("do metals feel colder than wood", "metal feels colder than wood"),
]
_SCI_TOPICS = [
    "how stars are born", "what a light-year actually measures", "how we know the age of the universe",
    "how exoplanets are detected", "what neutron stars are", "how the Moon formed", "what causes meteor showers",
    "how mountains form", "the rock cycle", "how fossils form", "what's inside the Earth",
    "how glaciers shape valleys", "how caves form in limestone", "what minerals are", "how soil forms",
    "how cells divide", "what enzymes do", "how bacteria differ from viruses", "how genes are switched on and off",
    "how the heart pumps blood", "how nerves send signals", "what mitochondria do", "how coral reefs form",
    "how bird migration works", "how bees communicate", "what makes a species endangered",
    "what the periodic table is organised by", "how chemical bonds work", "what pH means", "what catalysts do",
    "why some reactions give off heat", "what isotopes are", "how polymers like plastic are made",
    "what friction is", "how sound travels", "what energy really is", "how magnets work",
    "why objects float or sink", "what pressure is", "how lenses bend light", "how electricity flows in a circuit",
    "what temperature measures at the level of atoms", "how tides relate to the Moon and Sun",
]
_SCI_AUD = ["", " in simple terms", " for a 10-year-old", " in under 150 words", " with an everyday example",
            " in bullet points", " like I'm a curious adult with no science background"]


@_category("science", "why-questions and explanations about astronomy, geology, biology, chemistry and physics")
def _gen_science(rng: random.Random) -> list[str]:
    whys = _fill([
        "Why {x}?", "why {x}", "Can you explain why {y}?",
        "My kid asked me why {y} and I had no idea. What do I say?",
        "What's the actual reason {y}?", "Is there a simple explanation for why {y}?",
        "I read that {y}. Why is that?", "Explain the science of why {y}, briefly.",
        "ok random question but why {x}", "What would a physicist or biologist say about why {y}?",
    ], _SCI_WHYS)
    topics = _fill_cross(("Explain {x}{y}.", "Can you explain {x}{y}?", "Help me understand {x}{y}."),
                            _SCI_TOPICS, _SCI_AUD)
    topics += _fill(["I'm studying {x} for a test tomorrow. What are the key points?",
                     "What are common misconceptions about {x}?", "What's a good experiment or demo to show {x}?",
                     "Can you give me an analogy for {x}?"], _SCI_TOPICS)
    return _greet(rng, _take(rng, whys, 300) + _take(rng, topics, 240), 0.05)


_ERAS = [
    "ancient Rome", "ancient Egypt", "medieval England", "Edo-period Japan", "the Aztec Empire",
    "Victorian London", "the Ottoman Empire", "Tang dynasty China", "the Viking Age", "ancient Athens",
    "the Mughal Empire", "Great Zimbabwe", "Renaissance Florence", "the Mali Empire", "colonial America",
    "the Byzantine Empire", "ancient Mesopotamia", "Song dynasty China", "Weimar Germany",
    "the Roaring Twenties in the US",
    "Soviet Russia in the 1930s", "the Khmer Empire", "Ptolemaic Alexandria", "Moorish Spain",
]
_ERA_ASPECTS = [
    "What was daily life like for ordinary people in {x}?", "What did people eat in {x}?",
    "How were children educated in {x}?", "What did people do for fun in {x}?", "How was {x} governed?",
    "What jobs did most people have in {x}?", "What was medicine like in {x}?", "How did trade work in {x}?",
    "What role did women play in {x}?", "What kind of clothes did people wear in {x}?",
    "What were the biggest achievements of {x}?", "Why did {x} eventually decline or end?",
    "What would surprise a modern visitor to {x}?", "what were houses like in {x}",
]
_INVENTIONS = [
    "the printing press", "the compass", "paper money", "the steam engine", "the telephone", "the bicycle",
    "the light bulb", "refrigeration", "the telegraph", "antibiotics", "the mechanical clock", "eyeglasses",
    "the camera", "the washing machine", "concrete", "the plough", "writing", "the wheel", "gunpowder",
    "the internet", "the zip", "canned food", "vaccines", "the sewing machine", "porcelain", "the aeroplane",
]
_CUSTOMS = [
    "saying 'bless you' after a sneeze", "shaking hands", "birthday cakes with candles", "wedding rings",
    "maypole dancing on May Day", "Halloween costumes", "the seven-day week", "New Year's resolutions",
    "tipping in restaurants",
    "Valentine's cards", "Christmas trees", "the handshake at the end of a match", "throwing rice at weddings",
    "knocking on wood for luck", "the tooth fairy", "Mother's Day", "the Olympic torch relay", "carnival before Lent",
    "wearing black at funerals", "toasting with glasses", "the Day of the Dead", "Diwali lamps",
    "Lunar New Year red envelopes", "pancake day", "fireworks on New Year's Eve",
]


@_category("history", "history and culture: daily life in past societies, inventions, origins of customs")
def _gen_history(rng: random.Random) -> list[str]:
    eras = _fill(_ERA_ASPECTS, _ERAS)
    inv = _fill([
        "Who invented {x}, and how did it change daily life?", "What was the world like before {x}?",
        "How did {x} spread around the world?", "Tell me the history of {x} in five bullet points.",
        "What did people use before {x}?", "Did {x} appear in one place first, or in several places?",
        "Give me a short timeline of {x}.", "history of {x}?",
    ], _INVENTIONS)
    cust = _fill([
        "Where does the custom of {x} come from?", "What's the origin of {x}?",
        "What's the story behind {x}? Is there a historical reason?", "How old is the tradition of {x}?",
        "Is the usual story about the origin of {x} actually true?", "How do different cultures approach {x}?",
    ], _CUSTOMS)
    return _greet(rng, _take(rng, eras, 200) + _take(rng, inv, 150) + _take(rng, cust, 120), 0.06)


_LEGAL_SITUATIONS = [
    "my landlord is keeping my whole deposit for 'general wear and tear'",
    "I was sold a second-hand car that broke down a week later",
    "a company charged me for a subscription I cancelled", "my employer hasn't paid me for overtime",
    "I got a parking fine but the sign was hidden behind a tree", "my neighbour's extension blocks my light",
    "a builder took a deposit and never started the work",
    "my flight was cancelled and the airline offers only vouchers",
    "I've been summoned for jury duty during my exams", "my online order never arrived and the shop won't refund",
    "my landlord wants to enter the flat without notice", "I was dismissed after two weeks without a reason",
    "someone used my photo on their website without asking", "a friend owes me 800 and stopped answering",
    "the gym won't let me cancel my membership",
    "my rental flat has had no hot water for three weeks", "I was given the wrong medication at a pharmacy",
]
_CIVIC_TOPICS = [
    "small claims court", "a power of attorney", "a tenancy agreement", "a prenuptial agreement",
    "a non-disclosure agreement", "probate", "a restraining order", "a work visa", "permanent residency",
    "a notary", "an appeal against a fine", "a freedom of information request", "a statutory declaration",
    "mediation", "a class action lawsuit", "a conflict of interest", "a zoning permit", "a trademark",
    "copyright and fair use", "an employment contract's notice period", "a citizen's arrest", "an executor of a will",
    "a guarantor on a lease", "a referendum", "a local council", "a census",
]


@_category("civics",
    "general information on law, tenancy, consumer rights, bureaucracy and civic life (not legal advice)")
def _gen_civics(rng: random.Random) -> list[str]:
    sit = _fill([
        "{X}. What are my options?", "{X}. What can I do, in general terms?", "{X}. Is that even legal?",
        "What should I do if {x}?", "{X}. How do I write a firm letter about it?",
        "{X}. What steps would most people take first?", "{X}. Should I talk to a lawyer or handle it myself?",
        "{X}. What evidence should I keep?", "{X}. Can you draft a short complaint I could send?",
    ], _LEGAL_SITUATIONS)
    top = _fill([
        "What is {x}, in plain English?", "How does {x} work?", "What does {x} involve?",
        "Where can I find reliable information about {x}?", "Explain {x} like I'm 15.", "what's {x}",
        "What's a common misunderstanding about {x}?", "I've never dealt with {x} before. What should I know?",
    ], _CIVIC_TOPICS)
    misc = _fill([
        "How do I {x}?", "What documents would I usually need to {x}?", "How long does it usually take to {x}?",
    ], ["register to vote", "renew a passport", "apply for a work visa", "register a small business",
        "report a pothole to the council", "get a copy of my birth certificate",
        "dispute a bill from a utility company",
        "apply for a building permit for a shed", "become a citizen after living abroad for years",
        "get a marriage licence", "write a simple will", "change my name after a divorce",
        "set up a lasting power of attorney for a parent", "object to a planning application next door"])
    out = _take(rng, sit, 150) + _take(rng, top, 160) + misc
    return _persona(rng, out, 0.1)


_REL_SITUATIONS = [
    "my partner and I argue every time we talk about money", "my best friend forgot my birthday again",
    "my sister and I haven't spoken since our dad's funeral", "my partner wants to move abroad and I don't",
    "I think my friend group is slowly leaving me out", "my flatmate never does the dishes",
    "my in-laws turn up without warning every weekend",
    "I've been on three dates with someone and I'm not sure I like them",
    "my long-distance relationship feels harder every month",
    "a close friend keeps cancelling plans at the last minute",
    "my partner spends most evenings on their phone", "I want to reconnect with a friend I ghosted years ago",
    "my mum criticises my cooking every time she visits", "my partner is stressed about work and snapping at me",
    "I'm the only one in my friend group who isn't married", "my brother keeps asking to borrow money",
    "my new partner doesn't get along with my dog",
    "I feel like I always have to start conversations with my friends",
    "my friend told me a secret that I think her husband should know",
    "we disagree about how strict to be with our kids",
]
_KID_AGES = ["2-year-old", "4-year-old", "6-year-old", "8-year-old", "10-year-old", "12-year-old", "teenager",
             "15-year-old", "toddler", "7-year-old"]
_KID_ISSUES = [  # (issue, compatible ages by index into _KID_AGES)
    ("has a tantrum every time we leave the playground", (0, 1, 8)),
    ("won't go to sleep before 10pm", (1, 2, 3, 9)),
    ("says they hate reading", (2, 3, 4, 9)),
    ("wants a phone because all their friends have one", (3, 4, 5)),
    ("is scared of the dark", (1, 2, 3, 9)),
    ("lies about small things", (2, 3, 4, 9)),
    ("spends hours gaming and gets angry when I stop it", (4, 5, 6, 7)),
    ("won't talk to me about school", (4, 5, 6, 7)),
    ("bites other children at nursery", (0, 8)),
    ("is being left out by classmates", (2, 3, 4, 5, 9)),
    ("is anxious about starting a new school", (2, 3, 4, 5, 6, 7, 9)),
    ("refuses to eat anything green", (0, 1, 2, 8, 9)),
    ("wants to quit piano after a month", (2, 3, 4, 5, 9)),
    ("slams doors when they're upset", (4, 5, 6, 7)),
    ("asks where babies come from", (1, 2, 9)),
    ("has started swearing", (2, 3, 4, 9)),
    ("keeps hitting their little brother", (0, 1, 2, 8, 9)),
    ("stays up late messaging friends", (5, 6, 7)),
]


@_category("relationships", "relationships, friendship, family and parenting situations")
def _gen_relationships(rng: random.Random) -> list[str]:
    rel = _fill([
        "{X}. How should I bring it up?", "{X}. Am I overreacting?", "{X}. What would you do?",
        "{X}. How do I talk about it without starting a fight?", "{X}. Can you help me think it through?",
        "Advice please: {x}.", "{X}. What's a kind but honest thing I could say?",
        "{X}. Help me write a message to them.", "so basically {x}. thoughts?",
        "{X}, and it's starting to get to me. Where do I begin?",
    ], _REL_SITUATIONS)
    kids = [t.format(a=_KID_AGES[i], x=issue) for issue, ages in _KID_ISSUES for i in ages for t in (
        "My {a} {x}. What can I do?", "My {a} {x}. Is this normal?", "How do I handle it when my {a} {x}?",
        "Our {a} {x}. Any tips that actually work?",
    )]
    return _take(rng, rel, 190) + _take(rng, kids, 230)


_ROLES_JOB = [
    "project manager", "nurse", "software engineer", "teaching assistant", "graphic designer", "accountant",
    "warehouse supervisor", "sales representative", "UX researcher", "chef de partie", "civil engineer",
    "customer service agent", "data scientist", "pharmacist", "social worker", "marketing coordinator",
    "electrician", "HR business partner", "lab technician", "paralegal", "product manager", "retail store manager",
]
_CV_BULLETS = [
    "Responsible for doing the social media posts", "Helped customers with problems on the phone",
    "Did the monthly reports for my manager", "Was in charge of training new people",
    "Worked on the website redesign project", "Made the stock system better so we wasted less",
    "Organised events for the company", "Answered emails and booked meetings for the directors",
    "Handled complaints and sorted them out", "Looked after a team of 6 people",
]
_INTERVIEW_QS = [
    "Tell me about yourself.", "What is your biggest weakness?", "Why do you want to leave your current job?",
    "Describe a time you disagreed with your manager.", "Where do you see yourself in five years?",
    "Why should we hire you?", "Tell me about a mistake you made and what you learned.",
    "How do you handle pressure?", "What salary are you expecting?", "Do you have any questions for us?",
]
_CAREER_SITUATIONS = [
    "I've been in the same job for eight years and feel stuck",
    "I got a job offer but the salary is lower than I hoped",
    "I want to switch from teaching into tech", "I was made redundant last month",
    "I'm going back to work after five years raising kids",
    "I've been offered a promotion that means managing my friends", "I have two offers and can't decide",
    "my manager takes credit for my work", "I want to ask for a four-day week", "I'm 50 and want to change careers",
    "I keep getting interviews but no offers", "I was rejected after the final round",
]


@_category("career", "job search, CVs, interviews, salary negotiation and career changes")
def _gen_career(rng: random.Random) -> list[str]:
    roles = _fill([
        "What questions should I expect in an interview for a {x} role?", "How do I write a strong CV for a {x} job?",
        "What skills do employers look for in a {x}?", "Write a short cover letter for a junior {x} position.",
        "What does a typical day look like for a {x}?", "How would I become a {x} without a degree?",
        "What's a realistic starting salary for a {x}, and how do I find out?",
        "Write a LinkedIn headline and summary for a {x}.",
    ], _ROLES_JOB)
    bullets = _fill([
        "Can you make this CV bullet point sound stronger? \"{x}\"",
        "Rewrite this line from my CV with an action verb and a result: {x}",
        "My CV says \"{x}\". How can I make it more impressive without lying?",
    ], _CV_BULLETS)
    qs = [q.replace('?"?', '?"') for q in _fill([
        "How should I answer \"{x}\" in a job interview?",
        "Give me a good sample answer to this interview question: {x}",
        "What are interviewers really looking for when they ask \"{x}\"?",
        "I always freeze when asked \"{x}\" in interviews. Help me prepare an answer.",
    ], _INTERVIEW_QS)]
    sit = _fill(["{X}. What should I do next?", "{X}. How do I approach this?", "{X}. Any advice?",
                 "{X}. Can you help me make a plan?"], _CAREER_SITUATIONS)
    return _persona(rng, _take(rng, roles, 150) + bullets + qs + sit, 0.08)


_STUDY_PROBLEMS = [
    "I read my notes over and over but forget everything in the exam", "I can't focus for more than ten minutes",
    "I leave every assignment until the night before", "I have four exams in one week",
    "I get distracted by my phone constantly", "I don't understand my lecturer at all",
    "I work part-time and only have evenings to study", "I freeze during timed tests",
    "I have a 5,000-word dissertation due in six weeks and haven't started", "I'm retaking a maths exam I failed",
    "my study group mostly chats instead of working", "I study for hours but my grades aren't improving",
]
_STUDY_METHODS = [
    "spaced repetition", "active recall", "the Pomodoro technique", "the Feynman technique", "mind mapping",
    "the Cornell note-taking method", "interleaved practice", "time blocking", "a bullet journal",
    "the Eisenhower matrix", "the Anki flashcard app", "the 'eat the frog' approach", "a weekly review",
    "the two-minute rule", "the Getting Things Done (GTD) system", "body doubling",
]
_STUDY_SUBJECTS = ["my organic chemistry exam", "A-level history", "my statistics final", "the bar exam",
                   "a driving theory test", "GCSE French", "an anatomy practical", "my accounting exams",
                   "a calculus final",
                   "a coding bootcamp entrance test", "the IELTS test", "a grade 5 music theory exam",
                   "a project management certification", "the LSAT"]


@_category("study", "study skills, exam preparation, focus and productivity methods")
def _gen_study(rng: random.Random) -> list[str]:
    probs = _fill(["{X}. What should I change?", "{X}. Any study tips?", "{X}. Help me make a plan.",
                   "{X}. What am I doing wrong?"], _STUDY_PROBLEMS)
    methods = _fill([
        "What is {x}, and does it actually work?", "How do I use {x}?", "Explain {x} in three steps.",
        "Is it worth trying {x} if I have ADHD?", "Give me a simple example of {x} in practice.",
        "What are the downsides of {x}?", "how does {x} work",
    ], _STUDY_METHODS)
    subj = _fill([
        "What's the best way to revise for {x}?", "Make me a four-week revision plan for {x}.",
        "How many hours a day should I study for {x}?", "What mistakes do people make when preparing for {x}?",
        "I have two weeks to prepare for {x}. Where do I start?",
    ], _STUDY_SUBJECTS)
    return _persona(rng, _take(rng, probs, 48) + _take(rng, methods, 100) + _take(rng, subj, 60), 0.1)


_BOARD_GAMES = [
    "chess", "Go", "Catan", "Ticket to Ride", "backgammon", "Scrabble", "Monopoly", "poker", "bridge",
    "Carcassonne", "Pandemic", "mahjong", "Risk", "Codenames", "checkers", "Connect Four",
    "Azul", "cribbage", "dominoes", "Wingspan", "Uno", "Othello", "rummy",
]
_SPORTS = [
    "basketball", "tennis", "volleyball", "rugby union", "ice hockey", "baseball", "badminton", "handball",
    "American football", "golf", "table tennis", "water polo", "netball", "curling", "fencing", "squash",
    "lacrosse", "darts", "snooker", "gymnastics", "archery", "field hockey", "rowing",
]
_TEAM_SPORTS = ["basketball", "volleyball", "rugby union", "ice hockey", "baseball", "handball", "American football",
                "water polo", "netball", "lacrosse", "field hockey"]
_SPORT_TEMPLATES = [
    "Explain the basic rules of {x}.", "How is {x} scored?",
    "I'm watching {x} for the first time tonight. What should I look for?",
    "What are the most common beginner mistakes in {x}?",
    "What does a typical training week look like for amateur {x} players?", "What equipment do I need to start {x}?",
    "who are some of the all-time greats in {x}", "What's the history of {x}?",
    "How do I get better at {x} as an adult beginner?", "What fitness does {x} require?",
]
_GAME_TEMPLATES = [
    "How do you play {x}?", "What's a good beginner strategy for {x}?", "I keep losing at {x}. Any tips?",
    "Explain the rules of {x} in under 150 words.", "What's the most common mistake new {x} players make?",
    "How do I teach {x} to a 9-year-old?", "Is {x} more luck or skill?", "what's a good opening strategy in {x}",
    "Suggest a game similar to {x} but quicker to play.",
]
_CHESS_QS = [
    "What is the Sicilian Defence and why is it popular?", "How does castling work in chess?",
    "What is en passant?", "What's the difference between a gambit and a sacrifice?",
    "How should I think about the endgame with king and pawn against king?",
    "Why do chess players fianchetto a bishop?",
    "What are the most important principles of the chess opening?", "How do I stop hanging pieces in chess?",
    "What does 'zugzwang' mean?", "How does the Elo rating system work?",
    "Explain a fork, a pin and a skewer in chess.",
    "How do I checkmate with a king and rook against a king?", "What is the Queen's Gambit?",
    "How do I calculate moves ahead without getting lost?", "Is it worth memorising chess openings as a beginner?",
]


@_category("sports", "rules, strategy and getting started in sports, board games, card games and chess")
def _gen_sports(rng: random.Random) -> list[str]:
    sports = _fill(_SPORT_TEMPLATES, _SPORTS) + _fill([
        "What positions are there in {x}, and what does each one do?", "What does good teamwork look like in {x}?",
        "I've just joined an amateur {x} team. Which position suits a beginner?",
    ], _TEAM_SPORTS)
    games = _fill(_GAME_TEMPLATES, _BOARD_GAMES)
    return _greet(rng, _take(rng, sports, 220) + _take(rng, games, 150) + _CHESS_QS, 0.06)


_NOVELS = [
    "To Kill a Mockingbird", "The Great Gatsby", "Beloved", "Frankenstein", "One Hundred Years of Solitude",
    "Jane Eyre", "Crime and Punishment", "The Handmaid's Tale", "Things Fall Apart", "Brave New World",
    "Of Mice and Men", "Wuthering Heights", "The Road", "Never Let Me Go", "Lord of the Flies", "The Bell Jar",
    "Moby-Dick", "Middlemarch", "The Remains of the Day", "Animal Farm", "Don Quixote", "The Catcher in the Rye",
]
_FILMS = [
    "Casablanca", "Spirited Away", "The Godfather", "Parasite", "2001: A Space Odyssey", "Seven Samurai",
    "Citizen Kane", "Amélie", "Blade Runner", "Psycho", "Rear Window", "Pan's Labyrinth", "Jaws", "Metropolis",
    "The Shawshank Redemption", "Some Like It Hot", "Alien", "Toy Story", "City of God", "Vertigo",
]
_ART_MOVEMENTS = [
    "Impressionism", "Cubism", "Surrealism", "the Baroque", "Art Nouveau", "Pop Art", "Abstract Expressionism",
    "the Bauhaus", "Romanticism", "Minimalism", "Dada", "ukiyo-e prints", "Pre-Raphaelite painting", "Futurism",
]
_MUSIC_QS = [
    "What is a chord progression?", "What makes a song sound sad or happy?",
    "What's the difference between a major and minor key?",
    "Why do some songs get stuck in your head?", "What does a music producer actually do?", "What is syncopation?",
    "How did jazz start?", "What's the difference between a symphony and a concerto?", "What is a time signature?",
    "Why does the blues use the flattened third?", "What's a bridge in a pop song?", "How does autotune work?",
    "What makes Bach's music so admired?", "What's the difference between hip-hop and rap?",
    "Why do orchestras tune to the oboe?", "What is the circle of fifths and why is it useful?",
    "Recommend some albums for someone getting into jazz.", "What should I listen to if I like film soundtracks?",
    "How do I start listening to classical music without getting bored?", "What is K-pop's history in a nutshell?",
]


@_category("arts", "discussion of books, films, music and visual art: themes, movements, recommendations")
def _gen_arts(rng: random.Random) -> list[str]:
    books = _fill([
        "What are the main themes of {x}?", "I just finished {x}. What did the ending mean?",
        "Is {x} worth reading today? Why?", "What should I read after {x}?",
        "Give me discussion questions about {x} for a book club.",
        "Why is {x} considered a classic?", "Who are the most important characters in {x}, and how do they change?",
        "Write a spoiler-free pitch for {x} in two sentences.",
        "What was the historical context when {x} was written?",
    ], _NOVELS)
    films = _fill([
        "Why is {x} such an influential film?", "What should I notice when I watch {x}?",
        "Recommend three films like {x}.", "What's the story behind the making of {x}?",
        "Explain what critics admire about {x}.", "I didn't get {x}. What am I missing?",
    ], _FILMS)
    art = _fill([
        "What are the key features of {x}?", "Who were the main artists of {x}?", "How did {x} start?",
        "How can I recognise {x} in a museum?", "Why was {x} controversial at the time?",
        "Explain {x} to someone who knows nothing about art.",
    ], _ART_MOVEMENTS)
    return _take(rng, books, 160) + _take(rng, films, 100) + _take(rng, art, 70) + _MUSIC_QS


_ECO_ACTIONS = [
    "going vegetarian", "switching to an electric car", "installing solar panels",
    "taking the train instead of flying",
    "buying second-hand clothes", "composting food waste", "using a reusable coffee cup",
    "washing clothes at 30 degrees",
    "getting a heat pump", "eating local food", "cutting out single-use plastic", "working from home",
    "planting trees", "using cloth nappies", "having a smaller lawn", "switching to a green energy tariff",
    "repairing electronics instead of replacing them", "cycling to work", "insulating the loft",
    "banking with an ethical bank",
]
_ECO_TOPICS = [
    "microplastics", "ocean acidification", "carbon offsets", "rewilding", "fast fashion", "the ozone layer",
    "deforestation in the Amazon", "e-waste", "carbon capture", "biodiversity loss", "light pollution",
    "the carbon footprint of the internet", "greenwashing", "overfishing", "soil erosion", "peatland restoration",
    "invasive species", "water scarcity", "nuclear power's role in cutting emissions", "wind farms and birds",
    "recycling symbols on packaging", "lithium mining for batteries", "urban heat islands", "melting permafrost",
]


@_category("environment", "environment and sustainability: everyday choices, climate and nature topics")
def _gen_environment(rng: random.Random) -> list[str]:
    acts = _fill([
        "How much difference does {x} really make for the climate?", "Is {x} actually better for the environment?",
        "What are the hidden downsides of {x}?", "I'm thinking about {x}. Is it worth it?",
        "Give me the honest pros and cons of {x}, environmentally speaking.", "{X}: good idea or overrated?",
        "What's the first step if I'm considering {x}?",
    ], _ECO_ACTIONS)
    tops = _fill([
        "What is {x}, and why does it matter?", "Explain {x} in plain language.", "How serious is {x}?",
        "What can individuals do about {x}?", "What's the latest thinking on {x}, in general terms?",
        "Write a short explainer on {x} for a school newsletter.", "what's the deal with {x}",
        "Give me three surprising facts about {x}.",
    ], _ECO_TOPICS)
    return _take(rng, acts, 130) + _take(rng, tops, 170)


_CAR_SYMPTOMS = [
    "makes a squealing noise when I brake", "pulls to the left", "won't start on cold mornings",
    "has a check engine light on", "smells of petrol", "vibrates at motorway speeds", "shakes when idling",
    "has a clicking noise when turning", "leaks a green liquid", "has a battery that keeps going flat",
    "uses more fuel than it used to", "has windows that fog up inside", "makes a grinding noise in second gear",
    "has a whining noise that rises with speed", "blows only cold air from the heater", "has a soft brake pedal",
]
_CAR_TASKS = [
    "check my tyre pressure", "top up the coolant", "replace windscreen wiper blades", "check the oil level",
    "change a headlight bulb", "clean foggy headlights", "replace a car air filter", "change a flat tyre",
    "touch up a paint chip", "reset the service light", "clean the inside of the windscreen", "wax a car",
    "drive safely on ice", "park parallel without panicking", "prepare a car for a long road trip",
    "drive a manual car smoothly", "charge an electric car on a road trip", "tow a small trailer",
]
_BIKE_AND_MORE = [
    "adjust my bike's brakes", "fix a slipping bike gear", "true a wobbly bike wheel", "lube a bike chain",
    "choose the right bike size", "replace the battery in an e-scooter", "fit a child seat on a bike",
    "lock my bike so it doesn't get stolen", "keep a motorbike battery charged over winter",
]


@_category("cars", "car and bike problems, maintenance, driving and transport choices")
def _gen_cars(rng: random.Random) -> list[str]:
    sym = _fill([
        "My car {x}. What could be causing it?", "My car {x}. Is it safe to drive?",
        "my car {x}, what's wrong with it", "My car {x}. Roughly how expensive is that to fix?",
        "What should I tell the mechanic if my car {x}?", "Our 2012 hatchback {x}. Should I be worried?",
    ], _CAR_SYMPTOMS)
    tasks = _fill(["How do I {x}?", "Can you walk me through how to {x}?", "What's the easiest way to {x}?",
                   "how to {x}", "Any tips on how to {x}?"], _CAR_TASKS + _BIKE_AND_MORE)
    choices = [
        "Should I buy a new car or a three-year-old used one?", "Is leasing a car ever better than buying?",
        "What should I check before buying a used car?", "Are electric cars cheaper to run than petrol cars?",
        "How often should I really service my car?", "Hybrid or fully electric for mostly city driving?",
        "Is it worth buying winter tyres if it only snows a few days a year?", "What does a timing belt do?",
        "What's the difference between horsepower and torque?", "How do car insurance premiums get calculated?",
        "Is an e-bike a realistic replacement for a car on a 12 km commute?",
        "What do all the dashboard warning colours mean?",
        "How does ABS work?", "What's the difference between diesel and petrol engines?",
        "Why do cars need oil changes?", "What tyre tread depth is too low?", "What is regenerative braking?",
    ]
    return _take(rng, sym, 80) + _take(rng, tasks, 110) + choices


_GARDEN_PLANTS = [
    "tomatoes", "courgettes", "strawberries", "potatoes", "garlic", "runner beans", "lettuce", "carrots",
    "blueberries", "lavender", "sweet peas", "dahlias", "apple trees", "raspberries", "chillies", "peas",
    "sunflowers", "rhubarb", "onions", "cucumbers", "hydrangeas", "climbing roses", "mint", "squash",
]
_GARDEN_ISSUES = [
    "slugs eating everything", "a lawn full of moss", "clay soil that stays waterlogged",
    "a shady north-facing garden",
    "aphids on my roses", "bindweed everywhere", "a very windy balcony", "powdery mildew on my courgettes",
    "foxes digging up the beds", "a garden that's mostly concrete", "very sandy soil", "ants in my raised beds",
]
_OUTDOOR = [
    "go wild camping for the first time", "choose a tent for two people", "use a map and compass together",
    "start birdwatching", "light a campfire safely", "plan a first overnight hike", "stay warm in a sleeping bag",
    "identify common trees by their leaves", "forage for blackberries safely", "avoid ticks on a hike",
    "pack a day hike bag", "take good photos of the night sky", "choose hiking boots", "find north without a compass",
    "keep food safe from animals when camping", "go kayaking for the first time", "start geocaching",
]


@_category("garden", "growing food and flowers, garden problems, and camping, hiking and nature outdoors")
def _gen_garden(rng: random.Random) -> list[str]:
    grow = _fill([
        "When should I plant {x}?", "How do I grow {x} in containers?", "What's the secret to growing good {x}?",
        "What could be going wrong with my {x} this year?", "What grows well next to {x}?",
        "how much sun is enough for {x}", "Can I grow {x} from supermarket seeds or cuttings?",
        "What are common pests for {x}, and how do I deal with them organically?",
    ], _GARDEN_PLANTS)
    issues = _fill(["I have {x}. What can I do?", "How do I deal with {x} without chemicals?",
                    "Any ideas for {x}?", "I'm dealing with {x}. Where do I start?"], _GARDEN_ISSUES)
    out = _fill(["How do I {x}?", "Give me a beginner's guide to how to {x}.", "What should I know before I {x}?",
                 "Tips to {x}?"], _OUTDOOR)
    return _greet(rng, _take(rng, grow, 170) + _take(rng, issues, 40) + _take(rng, out, 60), 0.05)


_BUY_ITEMS = [
    "a mattress", "a laptop for university", "running shoes", "a winter coat", "a coffee machine", "a vacuum cleaner",
    "a bike for commuting", "a sofa", "noise-cancelling headphones", "a TV", "a washing machine",
    "a hiking backpack", "a pram", "a desk chair", "an air fryer", "a first digital camera", "a tent",
    "a smartwatch", "a set of kitchen knives", "a fridge", "an electric toothbrush", "a carry-on suitcase",
    "a gaming monitor", "a cot for a newborn", "new glasses frames", "a stand mixer", "a robot vacuum",
]
_BUY_TEMPLATES = [
    "What matters most when choosing {x}?", "How much should I expect to spend on {x}?",
    "Is it worth paying more for {x}?", "What features actually matter in {x}?", "Should I buy {x} second-hand?",
    "What's the best time of year to buy {x}?", "What are red flags when choosing {x}?",
    "buying {x}, any tips?", "I have about 300 to spend on {x}. What should I prioritise?",
    "How long should {x} last before I need to replace it?",
]
_SHOP_QS = [
    "How can I tell if an online shop is legitimate?", "Are extended warranties ever worth it?",
    "How do I stop impulse buying online?", "Is 'buy now, pay later' a good idea?",
    "What's the difference between a refund and a store credit, and can a shop refuse a refund?",
    "How do I spot fake reviews?", "Are supermarket own brands as good as the big brands?",
    "How do price-tracking tools work?", "Is it cheaper to shop online or in store for groceries?",
    "What's the best way to sell old clothes?", "How do I return something I bought abroad online?",
]


@_category("shopping", "choosing products, what to look for when buying, and shopping habits")
def _gen_shopping(rng: random.Random) -> list[str]:
    pool = _fill(_BUY_TEMPLATES, _BUY_ITEMS)
    return _greet(rng, _persona(rng, _take(rng, pool, 240), 0.12), 0.05) + _SHOP_QS


_DRAFTS = [
    "Dear hiring manager, I am writing to apply for the job. I think I would be good at it because I am hard "
    "working and a fast learner. I have worked in retail for three years. Please consider me. Thanks.",
    "Hi all, just a reminder that the office will be closed on Friday for the move. Please pack your desks by "
    "Thursday and label your boxes. IT will set up computers on Monday morning.",
    "Our café started in 2019 with one coffee machine and a dream. Today we serve over 300 customers a week, "
    "and every bean is roasted locally. Come for the coffee, stay for the cinnamon buns.",
    "In conclusion, social media has both good and bad effects. It helps people stay connected but it can also "
    "make them feel lonely. Therefore, people should use it carefully.",
    "I'm sorry I missed your party. Work has been crazy and I completely forgot. I hope you had a good time and "
    "I'll make it up to you.",
    "The results show that students who slept more did better in tests. This proves that sleep causes better grades.",
    "Hey team! Big news!!! We smashed our target this quarter!!! Thank you all sooo much, drinks on me Friday!!!",
    "Welcome to my blog. Here I will write about my journey of learning to bake bread, the failures and the wins.",
    "Our new app helps you track your water intake. It's simple, it's free and it sends you reminders.",
    "The meeting was long. We talked about the budget, then the budget again, and then we agreed to meet again "
    "next week.",
    "Once upon a time there was a dragon who was afraid of fire. He lived alone in a cold cave at the edge of "
    "the kingdom.",
    "To whom it may concern, I wish to complain about the noise from the bar downstairs, which continues past 2am "
    "most nights of the week.",
    "I have attached my report. Let me know if you have any questions. I can also walk you through it on a call.",
    "Volunteers needed! Help us clean up Riverside Park this Saturday from 9am. Gloves and bags provided.",
]
_DRAFT_ASKS = [
    "Can you give me feedback on this?", "How can I make this sound more professional?", "Make this shorter.",
    "Is the tone right here?", "What would make this more persuasive?", "Fix any grammar mistakes and explain them.",
    "Rewrite this to sound warmer.", "Does this flow well? Be honest.", "Cut this down to two sentences.",
    "How would an editor improve this?", "Rate this out of 10 and tell me what to change.",
    "Make this less repetitive.", "Give me three alternative versions of this.",
]


def _pasted(texts: Sequence[str], asks: Sequence[str], forms: Sequence[str]) -> list[str]:
    """Every pasted text with every request, in every form (``{t}``: the text, ``{a}``: the request)."""
    return [f.format(t=t, a=a) for t in texts for a in asks for f in forms]


@_category("feedback", "feedback, editing and tone changes on pasted drafts")
def _gen_feedback(rng: random.Random) -> list[str]:
    forms = ["{a}\n\n{t}", "Here's my draft:\n\n\"{t}\"\n\n{a}", "{t}\n\n{a}"]
    return _take(rng, _pasted(_DRAFTS, _DRAFT_ASKS, forms), 330)


_RAW_TEXTS = [
    "Meeting notes 3 March: Priya to send budget by Fri. Tom handles venue booking. Next meeting 10 March. "
    "Open question: catering for 40 or 60?",
    "Order #4471 - 2x blue mug (8.50 each), 1x teapot (24.00), shipping 4.95. Customer: J. Alvarez, Leeds.",
    "Hi, my name's Sam Ortiz, I'm 34, I live in Denver and I work as a dental hygienist. You can reach me at "
    "sam.ortiz@example.com.",
    "Flight BA117 departs London Heathrow 08:25, arrives New York JFK 11:05. Seat 32C. Booking ref QZ8K2L.",
    "Recipe: 200g flour, 2 eggs, 300ml milk, pinch of salt, butter for frying. Whisk, rest 30 min, fry thin.",
    "Monday gym, Tuesday dentist 3pm, Wednesday call with Rosa, Thursday nothing, Friday dinner at Kim's 7:30.",
    "The product arrived late and the box was damaged, but the headphones work perfectly and sound great.",
    "Q3 sales: North 120k, South 95k, East 143k, West 88k. Q2 was North 110k, South 99k, East 130k, West 91k.",
    "Apartment for rent: 2 bed, 1 bath, 68 m2, 3rd floor, no lift, balcony, 1,150 per month, available 1 June.",
    "i went to the shop yesterday and i buyed some bread but they didnt had any milk so i go to another shop",
    "Tasks: fix login bug (high), update README (low), add dark mode (medium), reply to Dana about API limits (high)",
    "Temperature readings: 6am 12C, 9am 15C, noon 21C, 3pm 23C, 6pm 19C, 9pm 14C.",
    "Attendees: Maria (marketing), Kofi (finance), Lena (design), Raj (engineering), Ben (sales).",
    "Symptoms listed on the form: headache for 3 days, mild fever, tired, no cough, drinking plenty of water.",
]
_TRANSFORM_ASKS = [
    "Turn this into JSON.", "Put this in a table.", "Extract all the names, dates and numbers from this.",
    "Turn this into a bulleted list.", "Summarise this in one sentence.", "Convert this to CSV with a header row.",
    "Pull out any action items.", "Rewrite this as a short, clear paragraph.", "What's missing or unclear here?",
    "Classify this as personal, work, shopping or travel, and say why.", "Turn this into YAML.",
    "Correct the spelling and grammar, changing as little as possible.", "Make a checklist from this.",
]


@_category("transform", "extracting, restructuring and converting pasted text into lists, tables, JSON and more")
def _gen_transform(rng: random.Random) -> list[str]:
    forms = ["{a}\n\n{t}", "{t}\n\n{a}", "{a} Only output the result.\n{t}"]
    return _take(rng, _pasted(_RAW_TEXTS, _TRANSFORM_ASKS, forms), 360)


_TRACEBACKS = [
    "TypeError: 'NoneType' object is not subscriptable", "KeyError: 'user_id'",
    "IndexError: list index out of range", "ModuleNotFoundError: No module named 'requests'",
    "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0",
    "ValueError: could not convert string to float: 'N/A'", "RecursionError: maximum recursion depth exceeded",
    "AttributeError: 'str' object has no attribute 'append'",
    "Uncaught TypeError: Cannot read properties of undefined (reading 'map')",
    "SyntaxError: Unexpected token '<' in JSON at position 0", "java.lang.NullPointerException",
    "error[E0382]: borrow of moved value: `v`", "fatal: refusing to merge unrelated histories",
    "Segmentation fault (core dumped)", "ERROR: permission denied for table orders",
    "CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource",
    "ImportError: attempted relative import with no known parent package",
    "pandas SettingWithCopyWarning: A value is trying to be set on a copy of a slice from a DataFrame",
    "npm ERR! ERESOLVE unable to resolve dependency tree",
    "docker: Error response from daemon: port is already allocated",
]
_COMMANDS = [
    "find . -name '*.log' -mtime +7 -delete", "grep -rn 'TODO' src/ | wc -l", "chmod 755 deploy.sh",
    "tar -xzvf archive.tar.gz", "ps aux | grep python", "du -sh * | sort -h", "git rebase -i HEAD~3",
    "git stash pop", "git reset --hard origin/main", "git cherry-pick a1b2c3d",
    "ssh -L 8080:localhost:80 user@server",
    "awk -F, '{print $2}' data.csv", "sed -i 's/foo/bar/g' *.txt", "curl -sSL https://example.com/install.sh | bash",
    "xargs -n 1 echo < list.txt", "rsync -avz --delete src/ backup/", "kill -9 1234", "crontab -e",
    "docker compose up -d --build", "git log --oneline --graph --all", "ln -s /opt/app/current app",
    "nohup python train.py > out.log 2>&1 &", "lsof -i :3000", "export PATH=\"$HOME/bin:$PATH\"",
]
_DEV_QS = [
    "How do I undo a git push that went to the wrong branch?",
    "What's the difference between git merge and git rebase?",
    "How do I write a SQL query that returns each customer's most recent order?",
    "What's the difference between LEFT JOIN and INNER JOIN, with an example?",
    "How do I find duplicate rows in a SQL table?",
    "In pandas, how do I group by a column and get the mean of another?",
    "How do I read a large CSV in pandas without running out of memory?",
    "How do I merge two DataFrames on two columns?",
    "How do I pivot a pandas DataFrame from long to wide format?",
    "How do I handle missing values in a pandas column?",
    "What does a REST API's 429 status code mean, and how should my client handle it?",
    "How do I send a POST request with JSON in Python?", "What's the difference between PUT and PATCH?",
    "How do I write a regex that matches an email address well enough for a signup form?",
    "What is a database migration?", "How do I profile a slow Python script?",
    "What is a Dockerfile's ENTRYPOINT vs CMD?",
    "How do I set up a pre-commit hook that runs my tests?", "What is an environment variable and how do I set one?",
    "How do I write a unit test that mocks an HTTP call?",
    "What's the difference between a list and a tuple in Python?",
    "How do I paginate results from an API?", "How does OAuth login work, step by step?",
    "How do I squash my last four commits into one?", "What's a good .gitignore for a Python project?",
    "How do I run a cron job every weekday at 7am?",
    "How do I check which version of a package is installed with pip?",
    "What is a foreign key and why would I use one?", "How do I make a Python script accept command-line arguments?",
    "What's the difference between async and threads in Python?",
]
_CODE_PASTES = [
    "for i in range(len(items)):\n    if items[i] == target:\n        return True\nreturn False",
    "SELECT name, COUNT(*) FROM orders GROUP BY customer_id;",
    "const total = prices.reduce((a, b) => a + b);",
    "df = df[df['age'] > 30]\ndf['group'] = 'senior'",
    "def add_item(item, basket=[]):\n    basket.append(item)\n    return basket",
    "if (user.role = 'admin') {\n  grantAccess();\n}",
    "with open('data.txt') as f:\n    lines = f.readlines()\nprint(len(lines))",
    "while True:\n    line = input()\n    if line == 'quit':\n        break\n    print(line.upper())",
]


@_category("devhelp", "debugging error messages, explaining commands, git, SQL, pandas, APIs and developer tooling")
def _gen_devhelp(rng: random.Random) -> list[str]:
    errs = _fill([
        "I'm getting this error: {x}\nWhat does it mean and how do I fix it?", "What usually causes \"{x}\"?",
        "{x}\n\nhelp?", "My script crashes with {x}. Where should I start looking?",
        "Can you explain this error in plain English? {x}", "Got this when running my code:\n\n{x}\n\nAny idea why?",
    ], _TRACEBACKS)
    cmds = _fill([
        "What does this command do? {x}", "Explain each part of this command:\n{x}", "Is it safe to run `{x}`?",
        "Can you break down `{x}` for me?", "what does `{x}` do exactly",
    ], _COMMANDS)
    pastes = _fill([
        "Is there a bug in this code?\n\n{x}", "Can you review this snippet?\n\n{x}",
        "How can I make this cleaner?\n\n{x}",
        "What does this do, line by line?\n\n{x}", "{x}\n\nWhat's wrong with this?",
    ], _CODE_PASTES)
    return _take(rng, errs, 110) + _take(rng, cmds, 110) + pastes + _DEV_QS


_UNITS = [  # (from, to, low, high)
    ("miles", "kilometres", 3, 400), ("kilometres", "miles", 5, 500), ("pounds", "kilograms", 2, 250),
    ("kilograms", "pounds", 1, 150), ("pints", "litres", 1, 20), ("yards", "metres", 5, 200),
    ("feet", "metres", 3, 30000), ("inches", "centimetres", 1, 80), ("cups of flour", "grams", 1, 6),
    ("ounces", "grams", 1, 40), ("litres", "US gallons", 2, 90), ("square metres", "square feet", 10, 250),
    ("acres", "hectares", 1, 500), ("knots", "kilometres per hour", 5, 40), ("tablespoons", "millilitres", 1, 8),
    ("stone", "kilograms", 7, 20), ("metres per second", "km/h", 2, 40), ("gigabytes", "megabytes", 2, 512),
]
_ESTIMATES = [
    "How many piano tuners might there be in a city of a million people?",
    "Roughly how many golf balls fit in a school bus?",
    "About how many words does a person speak in a lifetime?", "Estimate how many litres of water I use in a shower.",
    "Roughly how many heartbeats does a person have in a year?", "About how many grains of rice are in a 1 kg bag?",
    "How many pizzas are eaten in a big city on a Friday night, roughly?",
    "Estimate how far I walk in a year at 6,000 steps a day.",
    "About how many books could fit on a 2-metre bookshelf?", "Roughly how many breaths do I take per day?",
    "How many tennis balls would fill a bathtub, approximately?", "Estimate the number of leaves on a big oak tree.",
    "Roughly how much does it cost to run a 2 kW heater for 5 hours at 0.30 per kWh?",
    "About how many people are on planes in the sky at any one moment?",
    "Estimate how many hours I've spent sleeping by age 30.",
]


def _numbers_problem(rng: random.Random, kind: int) -> str:
    r = rng.randint
    if kind == 0:
        a, b, lo, hi = rng.choice(_UNITS)
        v = r(lo, hi)
        return rng.choice([f"How many {b} is {v} {a}?", f"Convert {v} {a} to {b}.", f"{v} {a} in {b}?",
                           f"What's {v} {a} in {b}, and how do I do it in my head?"])
    if kind == 1:
        p, x = rng.choice([5, 10, 12, 15, 18, 20, 25, 30, 35, 40, 60, 75]), r(12, 480)
        return rng.choice([f"What is {p}% of {x}?", f"A jacket costs {x} and is {p}% off. What's the sale price?",
                           f"My rent of {x * 5} is going up by {p}%. What will I pay?",
                           f"How do I work out {p}% of {x} quickly without a calculator?"])
    if kind == 2:
        bill, n, tip = r(40, 320), r(2, 9), rng.choice([10, 12, 15, 18, 20])
        return (f"Our restaurant bill is {bill}. We want to leave a {tip}% tip and split it between {n} people. "
                "How much each?")
    if kind == 3:
        serves, want = r(2, 6), r(3, 12)
        if serves == want:
            want += 2
        g = r(2, 9) * 50
        return (f"A recipe for {serves} people needs {g} g of flour. How much do I need for {want} people? "
                "How do I scale the rest of the recipe?")
    if kind == 4:
        km, h = r(80, 900), r(2, 9)
        return rng.choice([f"If I drive {km} km in {h} hours, what's my average speed?",
                           f"A train covers {km} km at {r(60, 300)} km/h. How long does the journey take?",
                           f"My car uses {r(4, 9)} litres per 100 km. How much fuel do I need for {km} km?"])
    if kind == 5:
        old, new = r(20, 400), r(20, 400)
        if old == new:
            new += 7
        return rng.choice([f"What's the percentage change from {old} to {new}?",
                           f"Sales went from {old} to {new} units. By what percentage did they change?"])
    if kind == 6:
        w, l_ = r(2, 9), r(3, 12)
        return rng.choice([f"My room is {w} m by {l_} m. How many square metres of flooring do I need, with 10% extra?",
                           f"How much paint do I need for a wall {w} m high and {l_} m long if a litre covers 10 m2?",
                           f"A garden is {w * 2} m by {l_ * 2} m. How many metres of fence go around it?"])
    if kind == 7:
        h1, m1 = r(6, 21), rng.choice([0, 15, 30, 45])
        dur = r(35, 400)
        return rng.choice([f"If I start at {h1}:{m1:02d} and the task takes {dur} minutes, when will I finish?",
                           f"A film starts at {h1}:{m1:02d} and runs {dur // 3 + 60} minutes. What time does it end?"])
    if kind == 8:
        a, b = r(2, 12), r(2, 12)
        return rng.choice([f"If {a} workers build a wall in {b} days, how long would {a + r(1, 6)} workers take?",
                           f"{a} taps fill a tank in {b} hours. How long do {a * 2} taps take?"])
    return rng.choice(_ESTIMATES) + rng.choice(["", " Show your assumptions.", " Just a rough order of magnitude."])


@_category("numbers",
    "unit conversions, percentages, everyday arithmetic and estimation questions with varied numbers")
def _gen_numbers(rng: random.Random) -> list[str]:
    out = list(dict.fromkeys(_numbers_problem(rng, i % 10) for i in range(520)))
    return out[:420]


_TRIVIA_TOPICS = [
    "the solar system", "world capitals", "1990s pop music", "the human body", "famous paintings", "Olympic history",
    "dinosaurs", "world flags", "Shakespeare", "the ocean", "kitchen science", "ancient Greece", "inventions",
    "famous bridges", "birds", "chemistry elements", "mountains of the world", "movie soundtracks", "mythology",
    "world religions", "languages of the world", "the Cold War", "football World Cups", "famous novels",
    "space exploration", "insects", "the Tudors", "African geography", "musical instruments", "the weather",
]
_QUIZ_FORMATS = [
    "Write {n} pub quiz questions about {x}, with answers.", "Give me {n} multiple-choice questions on {x}.",
    "Make a {n}-question true-or-false quiz about {x}.", "Quiz me on {x}: ask one question at a time.",
    "Create {n} hard trivia questions about {x} for people who think they know it well.",
    "I'm hosting a quiz night. Write a round of {n} questions about {x}, easy to hard.",
    "Give me {n} fun facts about {x} that would work as quiz questions.",
    "Write {n} picture-round ideas for a quiz about {x}.", "Make {n} trivia questions about {x} suitable for kids.",
]


@_category("trivia", "quiz and trivia generation on many topics")
def _gen_trivia(rng: random.Random) -> list[str]:
    pool = [t.format(n=rng.choice(["5", "8", "10", "six", "twelve"]),
        x=x) for t in _QUIZ_FORMATS for x in _TRIVIA_TOPICS]
    return _take(rng, pool, 250)


_BRANDS = [
    "a family-run Italian restaurant", "a yoga studio", "a local plumber", "an independent bookshop", "a dog groomer",
    "a craft brewery", "a nail salon", "a tutoring service", "a second-hand furniture shop", "a vegan food truck",
    "a wedding photographer", "a bike repair café", "a small hotel by the sea", "a dental practice", "a climbing gym",
    "a handmade jewellery brand", "a plant shop", "an accountancy firm for freelancers", "a children's theatre group",
    "a farm shop", "a skincare brand", "a language app", "a co-working space", "a personal trainer",
]
_MARKETING_TASKS = [
    "Write an Instagram caption for {x} announcing a summer offer.", "Write three tweets promoting {x}.",
    "Give me a week of social media post ideas for {x}.", "Write a short Google ad for {x}, under 90 characters.",
    "Write the text for a flyer for {x}.", "Suggest ten hashtags for {x}.",
    "Write a welcome email for new customers of {x}.",
    "How can {x} get more reviews online?", "What would a simple marketing plan for {x} look like?",
    "Write a 30-second radio ad script for {x}.", "Write an 'About us' section for the website of {x}.",
    "Who is the target audience for {x}, and how do I reach them?", "Write a TikTok video idea for {x}.",
    "Write a LinkedIn post celebrating the fifth anniversary of {x}.",
    "Write a newsletter intro for {x} for December.",
]


@_category("marketing",
    "social media posts, ads, captions, newsletters and simple marketing plans for small businesses")
def _gen_marketing(rng: random.Random) -> list[str]:
    return _decorate(rng, _take(rng, _fill(_MARKETING_TASKS, _BRANDS), 300),
                     ["Keep it upbeat.", "Avoid clichés.", "Use a friendly, local tone.", "No emojis, please.",
                      "Make it a bit funny.", "Keep it under 50 words."], 0.25)


_EVENTS_PLAN = [
    "a surprise 40th birthday party", "a baby shower", "a kids' birthday party for ten 6-year-olds",
    "a garden barbecue for 25 people",
    "a murder mystery dinner party", "a retirement party for a colleague", "a small wedding on a tight budget",
    "a family reunion", "a housewarming party", "a charity quiz night", "a book launch", "a team away day",
    "a New Year's Eve party at home", "a school fundraiser fair", "a hen do that isn't too wild",
    "a games night for adults",
    "a graduation party", "a picnic for a big group", "a neighbourhood street party",
    "a memorial gathering for my grandad",
    "a Eurovision viewing party", "a sleepover for 9-year-olds", "an engagement dinner",
    "a Halloween party for teenagers",
]
_EVENT_ASKS = [
    "Help me plan {x}.", "What do I need to organise for {x}?", "Give me a checklist for {x}.",
    "What food would work well for {x}?", "Suggest a theme and decorations for {x}.",
    "What's a realistic budget for {x}?",
    "Write the invitation text for {x}.", "Give me a timeline for the day of {x}.",
    "What games or activities suit {x}?",
    "What usually goes wrong at {x}, and how do I avoid it?", "I'm hosting {x} next month. Where do I start?",
    "ideas for {x}?",
]


@_category("events", "party, celebration and event planning: checklists, themes, food, invitations and timings")
def _gen_events(rng: random.Random) -> list[str]:
    return _greet(rng, _take(rng, _fill(_EVENT_ASKS, _EVENTS_PLAN), 300), 0.06)


_PHIL_QS = [
    "Is it ever right to lie?", "Do we have free will?", "What makes a life meaningful?", "Is morality objective?",
    "Can machines ever be conscious?", "What is the self, if my cells are always replaced?",
    "Is it wrong to eat meat?",
    "Should we judge historical figures by today's standards?", "Is it fair to inherit wealth?",
    "Do we owe anything to future generations?", "What is justice?", "Is happiness the goal of life?",
    "Can you be good without being religious?", "Is there a difference between killing and letting die?",
    "Should art be separated from the artist?", "Is it ethical to have children given climate change?",
    "What do we owe strangers in need?", "Is privacy a right or a privilege?",
    "Can something be true for me but not for you?",
    "Is beauty in the eye of the beholder?", "Is it okay to break an unjust law?", "What is knowledge, really?",
    "Does time exist without change?", "Are we responsible for our dreams or our thoughts?",
    "Is a promise still binding if circumstances change?", "Can war ever be just?", "What do we owe animals?",
    "Is it selfish to be kind because it makes you feel good?",
]
_PHILOSOPHERS = [
    "Socrates", "Plato", "Aristotle", "Kant", "Nietzsche", "Simone de Beauvoir", "John Stuart Mill", "Descartes",
    "Hume", "Confucius", "Laozi", "Spinoza", "Hannah Arendt", "Kierkegaard", "Epicurus", "Marcus Aurelius",
    "Wittgenstein", "Sartre", "Iris Murdoch", "Peter Singer", "Hobbes", "Rousseau", "Mary Wollstonecraft", "Camus",
]
_IDEAS = [
    "utilitarianism", "stoicism", "existentialism", "the trolley problem", "the ship of Theseus", "Plato's cave",
    "the veil of ignorance", "moral relativism", "determinism", "the problem of evil", "nihilism", "virtue ethics",
    "the categorical imperative", "the experience machine", "Pascal's wager", "the is-ought problem",
    "solipsism", "the Chinese room argument", "the social contract", "absurdism",
]


@_category("philosophy", "philosophy and ethics: big questions, thinkers and classic ideas and thought experiments")
def _gen_philosophy(rng: random.Random) -> list[str]:
    qs = _fill(["{x}", "{x} Give me the main positions.", "{x} What would different philosophers say?",
                "{x} Argue both sides briefly.", "My friend and I disagree on this: {x} Who's right?"], _PHIL_QS)
    who = _fill(["What did {x} believe?", "Summarise the main ideas of {x} in plain words.",
                 "What's a good first book by or about {x}?", "How is {x} relevant to everyday life today?",
                 "What would {x} think about social media?"], _PHILOSOPHERS)
    ideas = _fill(["Explain {x} simply.", "What's the strongest objection to {x}?",
        "Give me an everyday example of {x}.",
                   "what is {x}", "How would {x} apply to a decision about whether to quit my job?"], _IDEAS)
    return _take(rng, qs, 110) + _take(rng, who, 100) + _take(rng, ideas, 90)


_FEELINGS = [
    "I compare myself to everyone on social media", "I can't stop overthinking conversations after they happen",
    "I procrastinate even on things I want to do", "I feel like a fraud at work even though I get good feedback",
    "I find it hard to say no to people", "I get nervous talking on the phone",
    "I lose motivation after the first week of any goal",
    "I feel lonely even though I have friends", "I get irritated really easily when I'm tired",
    "I want to be more confident in groups", "I keep starting projects and never finishing them",
    "I worry a lot about things I can't control", "I'm bad at accepting compliments", "I struggle to make decisions",
    "I feel guilty when I rest", "I'm always late, no matter how hard I try",
]
_PSYCH_CONCEPTS = [
    "the Dunning-Kruger effect", "impostor syndrome", "the spotlight effect", "growth mindset",
    "learned helplessness",
    "the halo effect", "decision fatigue", "the Zeigarnik effect", "emotional intelligence", "attachment styles",
    "the bystander effect", "negativity bias", "flow state", "habit stacking", "delayed gratification",
    "the paradox of choice",
]
_ETIQUETTE = [
    "How much should I tip a hairdresser?", "Is it rude to bring a plus-one without asking?",
    "What's the etiquette for splitting the bill on a group dinner?", "How long after a wedding can I send a gift?",
    "Should I take my shoes off at a friend's house?", "How do I leave a party early without being rude?",
    "Is it okay to regift a present?", "How do I politely decline a wedding invitation?",
    "What should I bring when invited to dinner at someone's home?", "How soon should I reply to a work email?",
    "Is it rude to use my phone at the dinner table?", "How do I ask guests to take their shoes off?",
    "What's the etiquette for a funeral of someone I didn't know well?",
    "Do I need to send thank-you notes for birthday gifts?",
    "How do I handle a guest who won't leave?", "Is it rude to recline my seat on a plane?",
    "How do I correct someone who keeps getting my name wrong?",
    "What's polite to say to someone who's just lost a pet?",
    "Should I say something if a colleague has food in their teeth?",
    "How do I end a conversation with a chatty neighbour?",
    "What's the right way to introduce two people to each other?", "Is it okay to ask how much someone earns?",
    "How do I remind a friend about money they owe me without it being awkward?",
    "Who pays on a first date these days?", "How do I politely decline being a bridesmaid?",
]


@_category("selfhelp", "psychology, habits, confidence and self-improvement, plus everyday etiquette")
def _gen_selfhelp(rng: random.Random) -> list[str]:
    feel = _fill(["{X}. How do I change that?", "{X}. Is that common?", "{X}. Any practical tips?",
                  "{X}. Why do I do this?", "{X}. Can you give me a small exercise to try this week?",
                  "honestly {x}. how do people deal with this"], _FEELINGS)
    concepts = _fill(["What is {x}?", "Is {x} backed by real research?", "How does {x} show up in daily life?",
                      "Explain {x} with an example.", "How can knowing about {x} help me?"], _PSYCH_CONCEPTS)
    return _take(rng, feel, 120) + _take(rng, concepts, 70) + _ETIQUETTE


_NAMING_THINGS = [
    "a podcast about urban gardening", "a cat that's completely black", "a startup making reusable packaging",
    "a fantasy tavern", "a family WhatsApp group", "a running club that meets at dawn", "a home bakery",
    "a board game about pirates", "a newsletter for remote workers", "a YouTube channel about cheap travel",
    "a golden retriever puppy", "a book club that mostly drinks wine", "a cleaning company",
    "a hedgehog rescue charity",
    "my D&D character, a grumpy dwarf cleric", "a coffee blend with cardamom", "a pub quiz team",
    "a sourdough starter",
    "a spaceship in my novel", "a children's clothing brand", "a hiking blog", "a mobile app for splitting bills",
]
_IDIOMS = [
    "break the ice", "bite the bullet", "the ball is in your court", "spill the beans", "cost an arm and a leg",
    "under the weather", "hit the sack", "once in a blue moon", "a blessing in disguise",
    "let the cat out of the bag",
    "barking up the wrong tree", "beat around the bush", "the elephant in the room", "burn the midnight oil",
    "cut corners", "sit on the fence", "a piece of cake", "jump on the bandwagon", "pull someone's leg",
    "the last straw",
]
_SLANG = [
    "rizz", "no cap", "mid", "salty", "ghosting", "lowkey", "slay", "bussin", "touch grass", "main character energy",
    "it's giving", "ick", "simp", "vibe check", "delulu", "situationship", "sus", "FOMO", "stan", "glow up",
]
_PUN_TOPICS = ["cheese", "cats", "coffee", "maths", "trees", "bread", "fish", "space", "music", "eggs", "shoes",
               "books", "vegetables", "dinosaurs", "weather", "computers", "the ocean", "birds", "plants", "tea"]


@_category("wordplay", "names and titles, puns, jokes, riddles, idioms and slang")
def _gen_wordplay(rng: random.Random) -> list[str]:
    names = _fill(["Give me ten name ideas for {x}.", "What should I call {x}?", "Suggest some punny names for {x}.",
                   "name ideas for {x}?", "Brainstorm names for {x}: some serious, some silly."], _NAMING_THINGS)
    idioms = _fill(["What does '{x}' mean?", "Where does the phrase '{x}' come from?",
                    "Use '{x}' in a sentence.", "Is there an equivalent of '{x}' in Spanish or French?",
                    "what does {x} mean"], _IDIOMS)
    slang = _fill(["What does '{x}' mean?", "my kid keeps saying '{x}'. what does it mean?",
                   "How do people use the slang '{x}'?", "Is '{x}' still cool to say or is it cringe now?"], _SLANG)
    puns = _fill(["Tell me a pun about {x}.", "Give me five {x} puns.", "Write a riddle whose answer involves {x}.",
                  "Make up a joke about {x} for a kid's lunchbox note.",
                  "What's a good dad joke about {x}?"], _PUN_TOPICS)
    return (_take(rng, names, 90) + _take(rng, idioms, 80) + _take(rng, slang, 60) + _take(rng, puns, 80))


def _finance_scenario(rng: random.Random, kind: int) -> str:
    r = rng.randint
    if kind == 0:
        pay, rent = r(18, 70) * 100, r(6, 18) * 100
        return (f"I take home {pay:,} a month and my rent is {rent:,}. "
                + rng.choice(["How should I split the rest between bills, savings and fun?",
                              "Can you draft a simple monthly budget for me?",
                              "Is my rent too high a share of my income?"]))
    if kind == 1:
        debt, rate, extra = r(2, 30) * 500, rng.choice([12, 15, 18.9, 22, 24.9, 29.9]), r(2, 12) * 25
        return (f"I owe {debt:,} on a credit card at {rate}% APR. If I pay an extra {extra} a month, "
                "roughly how much faster do I clear it?")
    if kind == 2:
        goal, months = r(10, 200) * 100, r(6, 48)
        what = rng.choice(["a house deposit", "a wedding", "a new car", "an emergency fund", "a trip to Japan",
            "a laptop"])
        return (f"I want to save {goal:,} for {what} in {months} months. "
                "How much is that per month, and is it realistic?")
    if kind == 3:
        amt, rate, yrs = r(1, 50) * 1000, rng.choice([2, 3, 4, 4.5, 5, 6, 7]), r(3, 30)
        return rng.choice([f"If I invest {amt:,} at {rate}% a year for {yrs} years, what will it grow to?",
                           f"How much would {amt:,} be worth after {yrs} years at {rate}% compound interest?"])
    if kind == 4:
        a, b = r(25, 90) * 1000, r(25, 90) * 1000
        return (f"I've been offered {a:,} a year at one company and {b:,} at another with better benefits. "
                "How do I compare the two offers properly?")
    if kind == 5:
        price, dep = r(15, 90) * 10000, rng.choice([5, 10, 15, 20, 25])
        return (f"We want to buy a home for {price:,} with a {dep}% deposit. How much deposit is that, and what "
                "other upfront costs should we expect?")
    if kind == 6:
        sub = r(5, 25)
        return rng.choice([
            f"I spend about {sub} a week on coffee. What is that over a year, and what if I invested it instead?",
            f"I have {sub} streaming and app subscriptions. How do I decide which to cancel?",
            f"My partner earns {sub * 3}k and I earn {sub * 2}k. How should we split shared bills fairly?"])
    age = r(22, 60)
    return rng.choice([
        f"I'm {age} with no pension savings. Where should I start?",
        f"I'm {age} and just inherited {r(2, 60) * 1000:,}. What should I think about before spending it?",
        f"I'm {age} and want to retire at {age + r(8, 25)}. How do I work out how much I need?"])


@_category("finance", "personal finance scenarios with concrete numbers: budgets, debt, saving, interest and offers")
def _gen_finance(rng: random.Random) -> list[str]:
    return list(dict.fromkeys(_finance_scenario(rng, i % 8) for i in range(460)))[:400]


_QUICK = [
    "best way to store basil?", "how long do eggs last", "is pluto a planet", "tallest mountain in africa?",
    "define serendipity", "speed of sound?", "how to boil pasta", "cure for hiccups", "what's a haiku",
    "how many ounces in a pound", "who wrote dracula", "why is my wifi slow", "is coffee bad for you",
    "fastest land animal", "how old is the earth", "what is tofu made of", "when was the first iphone",
    "how to tie a tie", "capital of canada", "what's a roth ira", "meaning of 'ubiquitous'", "how to make ice faster",
    "good name for a goldfish?", "is it going to rain in the desert", "how far is mars", "how hot is lava",
    "what's a leap year", "who invented zero", "best houseplants for low light", "how do solar panels work",
    "why do we sneeze", "is honey vegan", "quick dinner ideas", "how to cook quinoa", "tips for a long flight",
    "how to stop a nosebleed", "difference between bake and roast", "what is a sonnet", "how many bones in a foot",
    "healthy snacks for work", "what's a bear market", "how to fold a shirt", "synonym for happy",
    "antonym of generous", "words that rhyme with silver", "plural of octopus", "is it 'affect' or 'effect'",
    "how big is a blue whale", "how do bats see", "what eats jellyfish", "do fish sleep", "can dogs eat grapes",
    "why is the sea salty", "how to clean suede", "how to whistle", "how many teaspoons in a tablespoon",
    "convert 350f to c", "15% of 80", "square root of 144", "what's 7 times 8", "is 91 prime",
    "how to say thank you in japanese", "hello in swahili", "translate 'good night' to italian",
    "what year did ww2 end", "who painted the starry night", "what is the speed of light", "largest ocean",
    "smallest country in the world", "longest river in asia", "deepest lake", "how to meditate",
    "how to fall asleep fast", "best stretches for hamstrings", "how much water per day", "what is gluten",
    "is rice gluten free", "how long to boil corn", "how to ripen avocados", "how to store potatoes",
    "how to sharpen scissors", "why do knees crack", "what is a black hole", "what's an ETF",
    "how to write a limerick", "how to start a blog", "what is css", "python vs java", "what's a vpn",
    "what is markdown", "how to center a div", "what's an llm", "what is phishing", "how to clear cache",
    "how to screenshot on mac", "how to reset a router", "what's 2fa", "how does bluetooth work",
    "tips for public speaking", "how to say no politely", "how to make small talk", "first date ideas",
    "cheap hobbies", "ideas for a rainy day", "what to do when bored", "gift ideas for dad", "fun facts about owls",
    "riddle please", "tell me a joke", "a fun fact", "recommend a podcast", "recommend a board game",
    "suggest a movie for tonight", "song ideas for a road trip", "motivate me", "inspire me", "quote about courage",
    "how to be more productive", "how to focus", "what's the pomodoro thing", "how to wake up early",
]


@_category("quick", "very short, search-style queries and one-liners")
def _gen_quick(rng: random.Random) -> list[str]:
    return list(_QUICK)


# ---------------------------------------------------------------------------------------
# Family, places, mind, myth, music, economics: parenting (babies to teens), geography (places, climates, rivers,
# mountains, maps and time zones), everyday psychology (emotions, habits, memory, biases),
# myths and folklore from many cultures, music (instruments, theory, genres, songwriting,
# practice) and economics (inflation, rates, trade, taxes, markets, news-style questions).
# ---------------------------------------------------------------------------------------

def _decorate_finished(rng: random.Random, prompts: Sequence[str], suffixes: Sequence[str], p: float) -> list[str]:
    """``_decorate`` for prompts that end in ``.``, ``?`` or ``!`` only: a suffix after a casual,
    unpunctuated prompt ("how are X and Y alike Keep it short.") would read as one run-on line."""
    out = []
    for s in prompts:
        out.extend(_decorate(rng, [s], suffixes, p) if s[-1:] in ".?!" else [s])
    return out


def _decorate_questions(rng: random.Random, prompts: Sequence[str], suffixes: Sequence[str], p: float) -> list[str]:
    """``_decorate`` for the questions only, then the other prompts unchanged: a suffix after a
    task ("Write a 150-word review ... Bullet points are fine.") reads oddly."""
    asks = [s for s in prompts if s.endswith("?")]
    return _decorate_finished(rng, asks, suffixes, p) + [s for s in prompts if not s.endswith("?")]


# --- parenting -------------------------------------------------------------------------

_KID_SITUATIONS = [  # (who, what they do): "{X} {y}." reads as a sentence
    ("my 4-month-old", "only naps if someone is holding her"),
    ("my newborn", "seems to have his days and nights mixed up"),
    ("my 6-month-old", "refuses to take a bottle"),
    ("my 9-month-old", "still wakes up every two hours at night"),
    ("my 11-month-old", "throws all her food on the floor at every meal"),
    ("my 14-month-old", "isn't walking yet"),
    ("my 18-month-old", "only says a handful of words"),
    ("my 2-year-old", "says no to absolutely everything"),
    ("my 2-year-old", "has started climbing out of his cot"),
    ("my 3-year-old", "refuses to sit on the potty"),
    ("my 3-year-old", "can't fall asleep without a pacifier"),
    ("my 3-year-old", "has started waking up at 5am"),
    ("my 4-year-old", "has an imaginary friend who gets blamed for everything"),
    ("my 4-year-old", "cries every morning at preschool drop-off"),
    ("my 5-year-old", "still wets the bed a few nights a week"),
    ("my 5-year-old", "has a meltdown every time the tablet goes off"),
    ("my 6-year-old", "takes an hour to eat dinner"),
    ("my 6-year-old", "gets furious whenever she loses a board game"),
    ("my 7-year-old", "says he's bored the minute he isn't on a screen"),
    ("my 7-year-old", "only wants to watch videos of other kids playing games"),
    ("my 8-year-old", "cries over homework every single evening"),
    ("my 8-year-old", "won't try any food he hasn't eaten before"),
    ("my 9-year-old", "forgets his lunch or his PE kit almost every day"),
    ("my 10-year-old", "gets stomach aches before every test"),
    ("my 11-year-old", "has started locking her bedroom door"),
    ("my 12-year-old", "is embarrassed to be seen with me in public"),
    ("my 13-year-old", "sleeps until 1pm at weekends"),
    ("my 14-year-old", "has stopped doing any chores at all"),
    ("my 14-year-old", "is on his phone until 2am on school nights"),
    ("my 15-year-old", "says she's giving up on maths because she's 'just bad at it'"),
    ("my 17-year-old", "has no plan for after school and won't talk about it"),
    ("my 5-year-old and 8-year-old", "fight over everything from the TV remote to the front seat"),
    ("my twins, who are 6,", "compete over who gets the most attention"),
    ("my 12-year-old and 9-year-old", "can't be left alone together for ten minutes without a fight"),
]
_SITUATION_TEMPLATES = [
    "{X} {y}. What can I try?", "{X} {y}. Is this a phase, or should I be worried?",
    "{X} {y}, and I'm running out of patience. Any ideas?", "how do i handle it when {x} {y}",
    "{X} {y}. My partner wants to ignore it and I want to step in. Who's right?",
    "Quick question: {x} {y}. Is that normal?", "{X} {y}. What do child development experts usually suggest?",
    "{X} {y}. What's one thing I could change this week?",
]
_KID_DECISIONS = [  # (who, a question or request they've raised)
    ("my 9-year-old", "has asked me straight out whether Santa is real"),
    ("my 10-year-old", "is begging to walk to school on her own"),
    ("my 12-year-old", "wants to start a YouTube channel"),
    ("my 13-year-old", "wants to dye her hair bright blue before a school photo"),
    ("my 15-year-old", "wants to go to a party where no adults will be around"),
    ("my 16-year-old", "has his first girlfriend and I have no idea what rules to set"),
    ("my 16-year-old", "wants a weekend job even though exams are coming up"),
    ("my 11-year-old", "wants to stay home alone for an afternoon"),
    ("my 14-year-old", "wants to get a job delivering newspapers before school"),
    ("my 8-year-old", "is asking for a pet snake"),
    ("my 13-year-old", "wants to take the bus into town with friends"),
    ("my 7-year-old", "asked me why her friend has two mums"),
    ("my 17-year-old", "wants to take a gap year and travel"),
]
_DECISION_TEMPLATES = [
    "{X} {y}. How should I handle it?", "{X} {y}. What would you do?", "{X} {y}. Help me think it through.",
    "{X} {y}. What should I say?", "so {x} {y}. thoughts?",
]
_LISTENERS = ["a 3-year-old", "a 5-year-old", "a 7-year-old", "a 10-year-old", "a 13-year-old",
                   "a 16-year-old"]
_HARD_TOPICS = [  # (topic, compatible listeners by index into _LISTENERS)
    ("the death of a grandparent", (0, 1, 2, 3, 4, 5)), ("our dog dying", (0, 1, 2, 3, 4)),
    ("our divorce", (0, 1, 2, 3, 4, 5)), ("a new baby on the way", (0, 1, 2, 3)),
    ("moving to a new city", (1, 2, 3, 4, 5)), ("puberty and how their body will change", (2, 3, 4)),
    ("staying safe online", (2, 3, 4, 5)), ("my cancer diagnosis", (1, 2, 3, 4, 5)),
    ("money being tight this year", (2, 3, 4, 5)), ("a war they keep hearing about on the news", (2, 3, 4, 5)),
    ("body boundaries and consent", (0, 1, 2, 3, 4, 5)), ("alcohol and drugs", (3, 4, 5)),
    ("being adopted", (0, 1, 2, 3, 4, 5)), ("the lockdown drills at school", (1, 2, 3)),
    ("Grandpa's dementia", (0, 1, 2, 3, 4)), ("a racist comment they heard at school", (2, 3, 4, 5)),
    ("the fact that I've lost my job", (1, 2, 3, 4, 5)), ("their best friend's parents splitting up", (1, 2, 3, 4)),
    ("sex and healthy relationships", (3, 4, 5)), ("vaping", (3, 4, 5)),
    ("a family member going to prison", (1, 2, 3, 4, 5)), ("their worries about climate change", (2, 3, 4, 5)),
    ("explicit content they might come across online", (3, 4, 5)),
]
_HARD_TEMPLATES = [
    "How do I explain {t} to {a}?", "What should I say to {a} about {t}?",
    "I need to talk to {a} about {t}. Where do I even start?", "how much should i tell {a} about {t}",
    "Can you give me a short, honest script for talking to {a} about {t}?",
    "What mistakes should I avoid when talking to {a} about {t}?",
]
_PARENTING_KID_AGES = ["6-month-old", "1-year-old", "2-year-old", "4-year-old", "6-year-old", "9-year-old",
                  "12-year-old", "15-year-old"]
_AGE_QS = [  # (question, compatible ages by index into _PARENTING_KID_AGES)
    ("How much sleep does a {a} need?", (0, 1, 2, 3, 4, 5, 6, 7)),
    ("What's a sensible bedtime for a {a}?", (1, 2, 3, 4, 5, 6, 7)),
    ("What chores can a {a} realistically do?", (2, 3, 4, 5, 6, 7)),
    ("How much screen time is reasonable for a {a}?", (2, 3, 4, 5, 6, 7)),
    ("how much pocket money is normal for a {a}", (4, 5, 6, 7)),
    ("What should I pack in a {a}'s lunchbox?", (3, 4, 5, 6)),
    ("How can I help a {a} with homework without doing it for them?", (4, 5, 6, 7)),
    ("What are some good books to read aloud to a {a}?", (0, 1, 2, 3, 4, 5)),
    ("What milestones should a {a} be reaching?", (0, 1, 2, 3)),
    ("How much independence is appropriate for a {a}?", (3, 4, 5, 6, 7)),
    ("How do I keep a {a} happy on a six-hour car journey?", (1, 2, 3, 4, 5, 6)),
    ("What healthy snacks will a {a} actually eat?", (1, 2, 3, 4, 5, 6)),
    ("How many after-school activities is too many for a {a}?", (4, 5, 6, 7)),
    ("What's a good morning routine for a {a}?", (2, 3, 4, 5, 6, 7)),
    ("What's a fair consequence when a {a} breaks a house rule?", (2, 3, 4, 5, 6, 7)),
    ("What games can I play with a {a} that help with learning?", (0, 1, 2, 3, 4)),
]
_APPROACHES = [
    "sleep training", "baby-led weaning", "gentle parenting", "time-outs", "reward charts",
    "natural consequences", "co-sleeping", "authoritative parenting", "attachment parenting",
    "free-range parenting", "praise for effort rather than intelligence", "the 'one bite' rule at dinner",
    "screen-free weekends", "weekly family meetings", "paid chores", "Montessori-style play at home",
    "sweets as a reward for good behaviour", "unstructured free play",
]
_APPROACH_TEMPLATES = [
    "What's the idea behind {x}, and does it actually work?", "What are the pros and cons of {x}?",
    "My mum has strong opinions about {x}. What does the research actually say?", "explain {x} in a few sentences",
    "We're thinking about trying {x}. What should we know first?", "{X}: good idea or just a trend?",
]
_PARENT_ONEOFFS = [
    "We have a 3-year-old and a newborn, and the 3-year-old has started acting like a baby again: asking for "
    "a bottle, baby talk, the lot. Is this regression normal, and how do we handle it?",
    "I'm a single dad working shifts, and my 10-year-old spends a lot of time at her grandma's. How do I stay "
    "close to her when I'm not around much?",
    "My 14-year-old son got caught vaping at school. I'm furious but I don't want to push him away. How should "
    "I handle the conversation tonight?",
    "Our 7-year-old still sleeps in our bed most nights. How do we move her back to her own room without weeks "
    "of tears?",
    "My daughter is 5 and starts school in September. She can't write her name yet. Should I be worried, or "
    "work on it over the summer?",
    "My 12-year-old got a C on a maths test and cried for an hour. How do I help her see mistakes differently?",
    "We're a blended family: my two kids are 9 and 11 and my partner's son is 8. They fight over everything. "
    "How do we make the house feel fair?",
    "I shouted at my 4-year-old this morning and I feel awful. How do I repair things with him?",
    "My teenager wants to go vegetarian and I cook for a family of five. How do I support her without making "
    "three dinners every night?",
    "My 17-year-old is learning to drive and I'm a nervous passenger. How do I teach her without us both "
    "losing it?",
    "What's a realistic after-school routine for two working parents with kids aged 6 and 9?",
    "My son is 8 and has just been diagnosed with ADHD. What changes at home tend to help?",
    "Both our kids (5 and 7) wake up at 5:30 and we're exhausted. Is there anything we can actually do about "
    "early risers?",
    "My 13-year-old wants her ears pierced and my partner says not until she's 16. How do we settle this?",
    "My 9-year-old asked me if I'm going to die. How should I answer honestly without scaring him?",
    "Our toddler only eats pasta, bananas and crackers. How worried should I be, and how do I widen what he "
    "eats?",
    "my kids are 10 and 12 and they never put anything away. what chore system actually sticks",
    "My teenager says I'm always on my phone too. How do we set family screen rules that apply to the adults "
    "as well?",
    "I'm at home with a 2-year-old and I'm running out of ideas for rainy days. What can we do indoors with "
    "almost no equipment?",
    "Our 15-year-old told us last night that she's bisexual. We love her and want to get this right. What "
    "should we say and do in the next few days?",
    "My 11-year-old is being picked on in a class group chat. Should I contact the other parents, the school, "
    "or both?",
    "How do I get my 17-year-old to take charge of his university applications without me nagging?",
    "Three kids, one TV, constant arguments. How do we share screen time fairly?",
    "My 6-year-old is terrified of the doctor and has a vaccination next week. How can I prepare her?",
    "The grandparents keep giving our kids sweets, and bedtime rules go out the window at their house. "
    "How do we raise it without offending them?",
    "is it ok to let my 8 year old quit football halfway through the season or should i make him finish",
]
_PARENT_SUFFIX = [
    "Keep it short.", "Please give me three concrete things to try.", "Bullet points would be great.",
    "I'd like realistic advice, not perfect-parent advice.", "Explain briefly why it works, too.",
    "I'm exhausted, so keep it simple.",
]


@_category("parenting", "parenting babies, toddlers, school-age kids and teens: sleep, food, screens, behaviour, "
                        "school and hard conversations")
def _gen_parenting(rng: random.Random) -> list[str]:
    sit = _fill(_SITUATION_TEMPLATES, _KID_SITUATIONS)
    sit += _fill(_DECISION_TEMPLATES, _KID_DECISIONS)
    hard = [t.format(t=topic, a=_LISTENERS[i]) for topic, idx in _HARD_TOPICS for i in idx
            for t in _HARD_TEMPLATES]
    ages = [q.format(a=_PARENTING_KID_AGES[i]) for q, idx in _AGE_QS for i in idx]
    appr = _fill(_APPROACH_TEMPLATES, _APPROACHES)
    out = (_take(rng, sit, 135) + _take(rng, hard, 90) + _take(rng, ages, 70) + _take(rng, appr, 55)
           + _PARENT_ONEOFFS)
    return _decorate_finished(rng, out, _PARENT_SUFFIX, 0.15)


# --- geography -------------------------------------------------------------------------

_GEO_WHYS = [  # (question order, statement order)
    ("is the Dead Sea so salty", "the Dead Sea is so salty"),
    ("does the Nile flow north", "the Nile flows north"),
    ("does Finland have so many lakes", "Finland has so many lakes"),
    ("is the Atacama Desert so dry", "the Atacama Desert is so dry"),
    ("does Britain have mild winters for somewhere so far north",
     "Britain has mild winters for somewhere so far north"),
    ("do most Australians live near the coast", "most Australians live near the coast"),
    ("do deserts get so cold at night", "deserts get so cold at night"),
    ("are the Himalayas still getting taller", "the Himalayas are still getting taller"),
    ("does Iceland have so many volcanoes", "Iceland has so many volcanoes"),
    ("does Norway have so many fjords", "Norway has so many fjords"),
    ("is Japan so mountainous", "Japan is so mountainous"),
    ("is the Caspian Sea called a sea if it's really a lake",
     "the Caspian Sea is called a sea even though it's a lake"),
    ("does India have a monsoon season", "India has a monsoon season"),
    ("is Greenland almost entirely covered in ice", "Greenland is almost entirely covered in ice"),
    ("do some rivers never reach the sea", "some rivers never reach the sea"),
    ("do trees stop growing above a certain height on mountains",
     "trees stop growing above a certain height on mountains"),
    ("is Chile so long and thin", "Chile is so long and thin"),
    ("is so much of the Netherlands below sea level", "so much of the Netherlands is below sea level"),
    ("does Antarctica count as a desert", "Antarctica counts as a desert"),
    ("does one side of a Hawaiian island get so much more rain than the other",
     "one side of a Hawaiian island gets so much more rain than the other"),
    ("are there no bridges across the Amazon river", "there are no bridges across the Amazon river"),
    ("are so many of the world's big cities next to rivers or the sea",
     "so many of the world's big cities are next to rivers or the sea"),
    ("does almost everyone in Egypt live along the Nile", "almost everyone in Egypt lives along the Nile"),
    ("is northern Canada so sparsely populated", "northern Canada is so sparsely populated"),
    ("is the Dead Sea shrinking", "the Dead Sea is shrinking"),
    ("is Bangladesh so prone to flooding", "Bangladesh is so prone to flooding"),
    ("aren't the hottest places on Earth on the Equator", "the hottest places on Earth aren't on the Equator"),
    ("does the Gulf Stream matter so much for Europe's weather",
     "the Gulf Stream matters so much for Europe's weather"),
    ("is Siberia so empty", "Siberia is so empty"),
    ("is the Pacific coast of South America so dry in places",
     "the Pacific coast of South America is so dry in places"),
    ("does the Mississippi have such a huge delta", "the Mississippi has such a huge delta"),
    ("is Indonesia made up of so many islands", "Indonesia is made up of so many islands"),
    ("does the Sahara have almost no rain when it sits right next to the Atlantic",
     "the Sahara gets almost no rain even though it sits right next to the Atlantic"),
    ("is Madagascar's wildlife so different from mainland Africa's",
     "Madagascar's wildlife is so different from mainland Africa's"),
    ("do some countries have no coastline at all", "some countries have no coastline at all"),
]
_GEO_WHY_TEMPLATES = [
    "Why {x}?", "why {x}", "Can you explain why {y}?", "What's the geography behind why {y}?",
    "My geography teacher mentioned that {y}. Why is that?", "I never understood why {y}. Explain?",
    "Briefly, why {x}?",
]
_CITIES = [
    "London", "Paris", "Istanbul", "Cairo", "Chicago", "Singapore", "New York", "Mexico City", "Moscow",
    "Shanghai", "Rio de Janeiro", "Denver", "Las Vegas", "Hong Kong", "Baghdad", "Mumbai", "Lagos", "Vienna",
    "Budapest", "Pittsburgh", "La Paz", "Dubai", "Johannesburg", "Amsterdam", "Kolkata", "Bangkok", "Manaus",
    "St. Louis", "Montreal", "Kyiv",
]
_CITY_TEMPLATES = [
    "Why did {x} grow up where it is?", "What geographic advantages helped {x} become a big city?",
    "Why was {x} built in that particular spot?", "how did geography shape {x}",
    "If you look at a map of {x}, what explains where it is?",
    "What natural features made {x} a good place to settle?",
]
_REGION_PAIRS = [
    ("the Sahara", "the Gobi Desert"), ("the Alps", "the Andes"), ("the Amazon basin", "the Congo basin"),
    ("the Mississippi", "the Danube"), ("the Nile", "the Amazon"), ("Iceland", "Greenland"),
    ("the Great Plains", "the Eurasian steppe"), ("New Zealand's North Island", "its South Island"),
    ("coastal Peru", "the Peruvian Amazon"), ("the Arctic", "Antarctica"), ("the Ganges", "the Yangtze"),
    ("Siberia", "northern Canada"), ("Borneo", "Madagascar"), ("Lake Superior", "Lake Victoria"),
    ("the Pacific Ocean", "the Atlantic Ocean"), ("the Rocky Mountains", "the Appalachians"),
    ("northern Italy", "southern Italy"), ("the east coast of Australia", "the west coast of Australia"),
    ("the Mediterranean", "the Black Sea"), ("the Scottish Highlands", "the Norwegian coast"),
]
_REGION_TEMPLATES = [
    "How do {x} and {y} differ geographically?", "Compare the climate and landscape of {x} and {y}.",
    "What do {x} and {y} have in common, and how are they different?", "compare {x} and {y} for me",
    "What are the key differences between {x} and {y}, in a nutshell?",
]
_GEOGRAPHY_GEO_CONCEPTS = [
    "how time zones work", "why China uses a single time zone", "the International Date Line",
    "latitude and longitude", "why the Mercator projection makes Greenland look huge", "what a rain shadow is",
    "how river deltas form", "what an oxbow lake is", "how fjords form", "what a drainage basin is",
    "what the Tropics of Cancer and Capricorn are", "why there's a midnight sun above the Arctic Circle",
    "how to read contour lines on a map", "what a map scale tells you", "what a tectonic plate boundary is",
    "the Köppen climate classification", "what a continental climate is",
    "why coastal towns have milder temperatures than inland ones", "what an archipelago is",
    "what an isthmus is", "how geographers define a desert", "what permafrost is",
    "the difference between a sea, a gulf and a bay", "what an estuary is", "the Pacific Ring of Fire",
    "why some countries use daylight saving time and others don't", "how GPS coordinates are written",
    "what makes a mountain a mountain rather than a hill",
    "the difference between the UK, Great Britain and the British Isles", "what trade winds are",
    "what tundra is", "what a savanna is", "how rivers carve canyons", "why the Mediterranean has dry summers",
    "what an endorheic basin is", "what a watershed is", "why borders often follow rivers and mountain ridges",
    "what the prime meridian is and why it runs through Greenwich",
]
_GEO_AUD = ["", " simply", " in a way a 12-year-old would get", " in a short paragraph", " with a real example",
                 " in bullet points", " like I'm an adult who skipped geography at school"]
_LANDFORMS = [
    "the Grand Canyon", "the Great Rift Valley", "Ha Long Bay", "Uluru", "the Dolomites", "Victoria Falls",
    "the Tibetan Plateau", "the Namib Desert's dunes", "Mount Kilimanjaro", "the Niagara Escarpment",
    "the White Cliffs of Dover", "the Great Lakes", "the Okavango Delta", "the Ural Mountains",
    "the Zhangjiajie sandstone pillars", "Table Mountain", "the Matterhorn", "the Bay of Fundy",
]
_LANDFORM_TEMPLATES = [
    "How did {x} form?", "What's the geology behind {x}, in simple terms?",
    "Tell me about the landscape around {x}.", "why is {x} shaped the way it is",
    "What makes {x} special compared with similar places?",
]
_RIVERS = [
    "the Ganges", "the Danube", "the Yangtze", "the Mekong", "the Zambezi", "the Rhine", "the Colorado River",
    "the Volga", "the Niger", "the Murray", "the Indus", "the Euphrates", "the St. Lawrence",
    "the Orinoco", "the Thames", "the Yellow River", "the Congo River",
]
_RIVER_TEMPLATES = [
    "Where does {x} start and end, and which countries or regions does it pass through?",
    "How important is {x} to the people who live along it?", "What are the biggest challenges facing {x} today?",
    "Why has {x} mattered so much in history?", "tell me about {x}",
]
_STRAITS = [
    "the Strait of Hormuz", "the Strait of Malacca", "the Bosphorus", "the Strait of Gibraltar",
    "the Panama Canal", "the Suez Canal", "the English Channel", "the Bab-el-Mandeb strait", "the Dardanelles",
]
_STRAIT_TEMPLATES = [
    "Why is {x} so important for world trade?", "Where exactly is {x}, and what does it connect?",
    "What would happen to shipping if {x} were blocked?",
]
_TZ_PAIRS = [
    ("London", "Tokyo"), ("New York", "Sydney"), ("Los Angeles", "Berlin"), ("Mumbai", "Toronto"),
    ("Dubai", "Chicago"), ("Singapore", "São Paulo"), ("Auckland", "Paris"), ("Mexico City", "Madrid"),
    ("Johannesburg", "Seoul"), ("Denver", "Manila"), ("Nairobi", "Vancouver"), ("Dublin", "Bangkok"),
]
_TZ_TEMPLATES = [
    "I'm in {x} and my friend is in {y}. What's a good time for a video call?",
    "what's the time difference between {x} and {y}",
    "If it's 9am in {x}, roughly what time is it in {y}, and does daylight saving change that?",
    "I work from {x} with a team in {y}. How do we find meeting times that work for both sides?",
]
_GEO_ONEOFFS = [
    "I'm moving from Miami to Minneapolis for work. What will the climate actually feel like through the year?",
    "Why does the Southern Hemisphere have so much less land than the Northern?",
    "Which countries does the Equator pass through?",
    "How many time zones does Russia have, and how does the country cope with that?",
    "Why are some national borders in Africa so straight?",
    "My daughter asked why Greenland looks as big as Africa on her classroom map. How do I explain map "
    "projections to her?",
    "What's the difference between a country, a state and a nation?",
    "I'm flying from London to Los Angeles and the route goes over Greenland. Why doesn't the plane just fly "
    "straight across the Atlantic?",
    "What's the highest town in the world where people live all year round?",
    "Why is Australia called both a country and a continent?",
    "Which is further north, Rome or New York?",
    "Why is London so much milder in winter than Calgary when they're at almost the same latitude?",
    "Is it true that dust from the Sahara ends up in the Amazon? How does that work?",
    "What are the main climate zones in Brazil?", "how do rivers decide which way to flow",
    "What are the main physical regions of the United States?",
    "How did the mountains shape Switzerland as a country?",
    "why does it get dark so early in scandinavia in winter",
    "I have a map-reading test for a hiking expedition. What do I need to know about grid references?",
    "How many continents are there? I've seen answers from four to seven.",
    "What's the difference between the Middle East, the Near East and the Levant?",
    "Why do some islands have tall mountains while others are flat coral atolls?",
    "Which rivers in the world flow through the most countries?",
    "If I drilled straight through the Earth from Spain, where would I come out?",
]
_GEOGRAPHY_GEO_SUFFIX = ["Keep it brief.", "Use a simple example.", "Answer in a short paragraph.",
                    "Please include a couple of real places as examples.", "No jargon, please."]


@_category("geography", "geography: places, climates, rivers, mountains, why cities grew where they did, maps "
                        "and time zones")
def _gen_geography(rng: random.Random) -> list[str]:
    whys = _fill(_GEO_WHY_TEMPLATES, _GEO_WHYS)
    cities = _fill(_CITY_TEMPLATES, _CITIES)
    regions = _fill(_REGION_TEMPLATES, _REGION_PAIRS)
    concepts = _fill_cross(("Explain {x}{y}.", "Can you help me understand {x}{y}?"), _GEOGRAPHY_GEO_CONCEPTS,
                              _GEO_AUD)
    concepts += _fill(["I'm revising for a geography test. Can you go over {x}?",
                       "my kid's homework is about {x} and i'm lost. help"], _GEOGRAPHY_GEO_CONCEPTS)
    features = (_fill(_LANDFORM_TEMPLATES, _LANDFORMS) + _fill(_RIVER_TEMPLATES, _RIVERS)
                + _fill(_STRAIT_TEMPLATES, _STRAITS))
    tz = _fill(_TZ_TEMPLATES, _TZ_PAIRS)
    out = (_take(rng, whys, 85) + _take(rng, cities, 55) + _take(rng, regions, 45) + _take(rng, concepts, 80)
           + _take(rng, features, 70) + _take(rng, tz, 20) + _GEO_ONEOFFS)
    return _decorate_finished(rng, out, _GEOGRAPHY_GEO_SUFFIX, 0.1)


# --- psychology ------------------------------------------------------------------------

_WHY_DO_I = [
    "forget why I walked into a room", "remember embarrassing moments from years ago out of nowhere",
    "check my phone even when there are no notifications", "feel more tired after a lazy day than a busy one",
    "eat more when I'm stressed", "find it easier to give advice than to follow it",
    "feel anxious on Sunday evenings", "rehearse arguments in the shower",
    "buy things I don't need when there's a sale",
    "remember song lyrics from 20 years ago but not what I read yesterday",
    "get a weird urge to jump when I'm standing somewhere high", "get déjà vu",
    "cry at adverts", "laugh at the worst possible moments", "stay up late even when I'm exhausted",
    "listen to sad music when I'm already sad", "feel more creative late at night",
    "scroll social media when I'm bored even though it makes me feel worse",
    "zone out while driving and not remember the last few miles",
    "forget people's names seconds after they tell me", "find it hard to start tasks but easy to keep going",
    "cringe so hard at embarrassing scenes on TV", "feel nostalgic when I smell certain things",
    "reread the same paragraph without taking it in", "talk to myself when I'm alone",
    "feel like the years go faster as I get older", "get irrationally annoyed by chewing noises",
    "enjoy horror films even though they scare me", "replay compliments less than criticism",
    "clean the whole house when I'm supposed to be studying",
]
_WHY_DO_I_TEMPLATES = [
    "Why do I {x}?", "why do i {x}", "Is there a psychological explanation for why I {x}?",
    "What's happening in my brain when I {x}?", "Is it normal that I {x}?", "I {x}. Is that a known thing?",
]
_BIASES = [
    "confirmation bias", "anchoring", "the sunk cost fallacy", "the availability heuristic",
    "the fundamental attribution error", "hindsight bias", "optimism bias", "the planning fallacy",
    "loss aversion", "status quo bias", "the IKEA effect", "the mere exposure effect",
    "the frequency illusion (the Baader-Meinhof phenomenon)", "survivorship bias", "the framing effect",
    "the peak-end rule",
    "the endowment effect", "the false consensus effect", "the curse of knowledge", "the just-world hypothesis",
    "in-group bias", "the decoy effect", "the serial position effect", "cognitive dissonance", "the Barnum effect",
]
_BIAS_TEMPLATES = [
    "What is {x}? Give me an everyday example.", "How can I catch {x} in my own thinking?",
    "Explain {x} to someone who's never studied psychology.", "What's the classic study on {x}?",
    "where does {x} show up in everyday life", "{X}: real thing or pop psychology?",
    "Give me three quick examples of {x} from work, shopping and relationships.",
]
_PSY_TOPICS = [
    "how memories are formed and stored", "why we forget things", "the difference between short-term and "
    "long-term memory", "how habits form in the brain", "intrinsic versus extrinsic motivation",
    "what stress does to the body and mind", "the fight-or-flight response", "why procrastination happens",
    "what emotions are for, from an evolutionary point of view", "how sleep affects mood and memory",
    "how the brain's reward system works", "what dopamine actually does", "why willpower seems to run out",
    "the difference between anxiety and fear", "how resilience develops and whether it can be learned",
    "how first impressions form",
    "what introversion and extroversion really mean", "what boredom is for", "why people conform to a group",
    "the difference between guilt and shame", "why we remember emotional events so vividly",
    "what burnout is in psychological terms", "how mood affects decisions",
    "how chronic stress differs from short-term stress", "how false memories happen",
    "why rewards sometimes kill motivation", "what classical conditioning is",
]
_PSY_AUD = ["", " simply", " in a way a 15-year-old would understand", " in under 150 words",
                 " with an everyday example",
                 " as if I'm a first-year psychology student", " in three bullet points"]
_HABIT_CONTEXTS = [
    "I have a 3,000-word essay due Friday and I haven't started",
    "I want to stop checking my phone the moment I wake up",
    "every January I start going to the gym three times a week and I've quit by February",
    "I leave the dishes until the sink is completely full",
    "I want to read more but I always end up watching TV instead",
    "I bite my nails whenever I'm nervous", "I snack every evening after dinner even when I'm not hungry",
    "I promise myself I'll learn to code every year and never do",
    "I put off replying to messages until it gets awkward", "I hit snooze four or five times every morning",
    "I open my laptop to work and end up reading the news for an hour",
    "I buy books and online courses and never open them",
]
_HABIT_TEMPLATES = [
    "{X}. What's the psychology behind this?", "{X}. How do I actually break the pattern?",
    "{X}. Explain what's going on and give me one small thing to try.",
    "{X}. Why is this so hard to change?",
]
_EXPERIMENTS = [
    "the Stanford prison experiment", "Milgram's obedience experiment", "the marshmallow test",
    "Pavlov's dog experiment", "Asch's line experiment on conformity", "the Little Albert experiment",
    "the Robbers Cave experiment", "Harlow's wire-mother experiment with infant monkeys", "the invisible gorilla study",
    "Elizabeth Loftus's car crash memory study", "the Bobo doll experiment", "Festinger's $1/$20 experiment",
]
_EXPERIMENT_TEMPLATES = [
    "What was {x}, and what did it show?", "Has {x} held up over time, or has it been criticised?",
    "Summarise {x} in a paragraph for my intro psych class.", "what did we learn from {x}",
    "Would {x} be allowed today? Why or why not?",
]
_PSY_ONEOFFS = [
    "Why does time seem to slow down when you're in danger?",
    "I always remember the one bad comment in a performance review and forget the five good ones. Why are our "
    "brains like this?",
    "What's the difference between a psychologist, a psychiatrist and a therapist?",
    "Are people really either left-brained or right-brained?",
    "Do learning styles like 'visual learner' actually exist?", "Why do people believe conspiracy theories?",
    "How reliable are eyewitness memories?", "Why is it so hard to change someone's mind with facts?",
    "Is multitasking real, or are we just switching quickly between tasks?",
    "How does the brain decide what to remember from a normal day?",
    "Why is it so hard to stick to New Year's resolutions?",
    "I get really anxious before exams even when I've studied. What's going on psychologically, and what helps?",
    "What's the psychology behind why we find puppies and babies so cute?",
    "Why does writing a to-do list make me feel calmer before I've even done anything on it?",
    "my partner remembers every detail of our holidays and I remember almost nothing. why do memories differ "
    "so much between people",
    "Why do people behave so differently online than face to face?",
    "What do personality tests like Myers-Briggs get right and wrong?",
    "Why does saying a word over and over make it sound strange?",
    "Is there any science behind 'sleeping on it' before a big decision?",
    "Why are we more moved by one named person in need than by thousands of anonymous ones?",
    "I moved to a new city six months ago and still feel homesick. Is there a psychological reason it's taking "
    "so long?",
    "Why do some people get a rush from public speaking while others freeze?",
    "How do psychologists actually measure something like happiness?",
]
_PSY_SUFFIX = ["Keep it short.", "Please mention what the research says.", "Give one practical takeaway.",
                    "Explain it without jargon.", "Use an example from everyday life."]


@_category("psychology", "everyday psychology: emotions, habits, memory, motivation, cognitive biases, stress and "
                         "why-do-I questions")
def _gen_psychology(rng: random.Random) -> list[str]:
    why = _fill(_WHY_DO_I_TEMPLATES, _WHY_DO_I)
    biases = _fill(_BIAS_TEMPLATES, _BIASES)
    topics = _fill_cross(("Explain {x}{y}.", "Can you explain {x}{y}?"), _PSY_TOPICS, _PSY_AUD)
    topics += _fill(["What does psychology research say about {x}?",
                     "Give me the key ideas about {x} in five bullet points."], _PSY_TOPICS)
    habits = _fill(_HABIT_TEMPLATES, _HABIT_CONTEXTS)
    exps = _fill(_EXPERIMENT_TEMPLATES, _EXPERIMENTS)
    out = (_take(rng, why, 95) + _take(rng, biases, 80) + _take(rng, topics, 75) + _take(rng, habits, 30)
           + _take(rng, exps, 35) + _PSY_ONEOFFS)
    return _decorate_finished(rng, out, _PSY_SUFFIX, 0.12)


# --- myths and folklore ----------------------------------------------------------------

_FIGURES = [  # (figure, tradition)
    ("Anansi", "West African and Caribbean folklore"), ("Loki", "Norse mythology"),
    ("Prometheus", "Greek mythology"), ("Persephone", "Greek mythology"), ("Quetzalcoatl", "Aztec mythology"),
    ("Maui", "Polynesian mythology"), ("Amaterasu", "Japanese mythology"),
    ("Sun Wukong (the Monkey King)", "Chinese folklore"), ("Baba Yaga", "Slavic folklore"),
    ("Thor", "Norse mythology"), ("Isis", "Egyptian mythology"), ("Anubis", "Egyptian mythology"),
    ("Gilgamesh", "Mesopotamian mythology"), ("Medusa", "Greek mythology"), ("Odin", "Norse mythology"),
    ("Cú Chulainn", "Irish mythology"), ("the Morrígan", "Irish mythology"), ("Pele", "Hawaiian tradition"),
    ("the Rainbow Serpent", "Aboriginal Australian traditions"), ("Raven", "Pacific Northwest Indigenous stories"),
    ("Freyja", "Norse mythology"), ("Ra", "Egyptian mythology"), ("Perun", "Slavic mythology"),
    ("Väinämöinen", "Finnish mythology"), ("La Llorona", "Mexican folklore"), ("Tiamat", "Babylonian mythology"),
    ("Nüwa", "Chinese mythology"), ("Hermes", "Greek mythology"), ("Coyote", "many Native American traditions"),
    ("Hanuman", "Hindu epics"), ("Set", "Egyptian mythology"), ("Athena", "Greek mythology"),
    ("Susanoo", "Japanese mythology"), ("Brigid", "Irish mythology"),
]
_FIGURE_TEMPLATES = [
    "Who is {x} in {y}?", "Tell me the most famous story about {x}.", "What does {x} represent in {y}?",
    "Explain who {x} is to a 10-year-old.", "why is {x} such a big deal in {y}",
    "What are the best-known stories about {x}?", "How is {x} usually shown in art?",
    "I keep seeing {x} in games and books. Who is that in the original stories?",
]
_MYTH_STORIES = [
    "the story of Pandora's box", "the myth of Orpheus and Eurydice", "the story of Icarus",
    "the legend of the sword in the stone", "the myth of Persephone and the seasons", "the story of Ragnarök",
    "the flood story in the Epic of Gilgamesh", "the legend of the Pied Piper of Hamelin",
    "the story of Romulus and Remus", "the legend of the Trojan Horse", "the tale of Momotarō, the Peach Boy",
    "the story of Anansi and the pot of wisdom", "the myth of Theseus and the Minotaur",
    "the story of how Maui fished up the North Island of New Zealand",
    "the Chinese legend of the Cowherd and the Weaver Girl", "the myth of Amaterasu hiding in a cave",
    "the story of Beowulf and Grendel", "the legend of the Flying Dutchman", "the Inuit story of Sedna",
    "the myth of Osiris and Set", "the myth of Narcissus and Echo", "the story of Thor's stolen hammer",
    "the Chinese legend of the White Snake", "the Russian tale of Vasilisa the Beautiful",
    "the myth of Arachne", "the myth of Sisyphus", "the Hindu story of the churning of the ocean",
    "the story of King Midas and the golden touch", "the legend of El Dorado", "the Scottish tale of the selkie wife",
    "the myth of Jason and the Golden Fleece", "the legend of Mulan",
]
_STORY_TEMPLATES = [
    "Retell {x} in a few paragraphs.", "Can you tell me {x}?", "tell me {x} like a bedtime story for a 6-year-old",
    "Summarise {x} in five sentences.", "What's the moral of {x}?",
    "Retell {x} from a minor character's point of view.", "Where does {x} come from, and how old is it?",
    "Give me a modern retelling of {x} set in a big city today.",
]
_MOTIFS = [
    "stories about a great flood", "trickster stories", "stories about dragons",
    "stories about how humans got fire", "stories about journeys to the underworld",
    "stories about the end of the world", "sun gods", "shape-shifters", "stories about giants",
    "stories about a world tree", "mermaids and sea spirits", "stories about the first humans",
    "myths that explain the seasons", "stories about twins", "stories about the sky and earth being pushed apart",
    "ghosts that haunt roads and rivers", "heroes who die and come back", "stories about a stolen sun or moon",
]
_MOTIF_TEMPLATES = [
    "Why do so many cultures have {x}?", "Compare {x} from three different cultures.",
    "Give me examples of {x} from around the world.", "what do {x} from different places have in common",
]
_MYTH_PAIRS = [
    ("Zeus", "Odin"), ("Loki", "Anansi"), ("the Greek underworld", "the Norse Hel"), ("Thor", "Indra"),
    ("Heracles", "Gilgamesh"), ("European dragons", "Chinese dragons"), ("the Greek gods", "the Roman gods"),
    ("Irish fairies", "fairies in Victorian children's books"), ("Coyote", "Raven"),
    ("the Egyptian afterlife", "the Greek afterlife"), ("Baba Yaga", "the witch in Hansel and Gretel"),
    ("Norse creation myths", "Greek creation myths"),
]
_MYTHS_PAIR_TEMPLATES = [
    "Compare {x} and {y}.", "What are the similarities and differences between {x} and {y}?",
    "how are {x} and {y} alike",
]
_SUPERSTITIONS = [
    "walking under a ladder", "breaking a mirror", "black cats", "Friday the 13th", "opening an umbrella indoors",
    "lucky horseshoes", "four-leaf clovers", "saying 'Macbeth' in a theatre", "spilling salt",
    "the unlucky number 4", "the evil eye", "a lucky rabbit's foot", "new shoes on the table",
    "magpies", "whistling at night", "an itchy palm", "the number 13", "pulling a wishbone",
    "stepping on cracks in the pavement", "sweeping the house at Lunar New Year", "crossing your fingers",
    "saying 'break a leg' to actors", "wishing on a shooting star",
]
_SUPERSTITION_TEMPLATES = [
    "Where does the superstition about {x} come from?", "what's the history behind the superstition about {x}",
    "Is the superstition about {x} found in other countries too?",
    "My gran takes the superstition about {x} very seriously. How did it start?",
]
_CREATURES = [
    "the kitsune", "the banshee", "the kappa", "the golem", "the selkie", "the chupacabra", "the troll",
    "the bunyip", "the djinn", "the kelpie", "the tengu", "the Jersey Devil", "the yeti", "the leprechaun",
    "the naga", "the dullahan", "Krampus", "the tanuki", "the domovoi", "the will-o'-the-wisp", "the rusalka",
    "the Nian monster", "the aswang", "the draugr",
]
_CREATURE_TEMPLATES = [
    "What is {x} in folklore?", "Where does the legend of {x} come from?",
    "Is {x} good or evil in the old stories?", "Write a short spooky campfire tale featuring {x}.",
    "describe {x} the way the old stories do",
]
_MYTH_ONEOFFS = [
    "What's the difference between a myth, a legend and a folktale?",
    "Did King Arthur really exist, or is he pure legend?",
    "Why do the Greek and Roman gods have different names for what seem like the same gods?",
    "What is Joseph Campbell's 'hero's journey', and which myths fit it?",
    "Are there versions of Cinderella in other cultures?",
    "Who are the main Norse gods, and what is each one known for?",
    "Explain the Nine Worlds of Norse mythology.",
    "What is the Dreaming (sometimes called the Dreamtime) in Aboriginal Australian cultures?",
    "Was Robin Hood a real person?", "What is the Kalevala?", "What's the Popol Vuh about?",
    "Who are the twelve Olympian gods? List them with what each one rules over.",
    "My son loves the Percy Jackson books. Which real Greek myths should we read together next?",
    "I'm writing a fantasy novel and want to borrow from Slavic folklore. What creatures and figures should I "
    "know about?",
    "Why does the number three turn up so often in fairy tales?",
    "How did the ancient Egyptians believe the soul was judged after death?",
    "what's the deal with fairies in irish folklore and why shouldn't you eat their food",
    "Which Greek myths explain natural things, like echoes or spiders?",
    "Where does the Easter Bunny come from?", "why is it called an achilles heel",
    "Tell me about Japanese yokai. What are a few of the strangest ones?",
    "How did the Norse imagine the end of the world, and does anything survive it?",
    "Are any myths based on real events, like floods or volcanic eruptions?",
    "What's the difference between mythology and religion?",
]
_MYTH_SUFFIX = ["Keep it short.", "Make it suitable for kids.", "Please mention where the story comes from.",
                     "Answer in a few paragraphs.", "Keep it under 200 words."]


@_category("myths", "mythology, folklore and legends from many cultures: retellings, figures, comparisons, "
                    "creatures and superstitions")
def _gen_myths(rng: random.Random) -> list[str]:
    figures = _fill(_FIGURE_TEMPLATES, _FIGURES)
    stories = _fill(_STORY_TEMPLATES, _MYTH_STORIES)
    motifs = _fill(_MOTIF_TEMPLATES, _MOTIFS) + _fill(_MYTHS_PAIR_TEMPLATES, _MYTH_PAIRS)
    sup = _fill(_SUPERSTITION_TEMPLATES, _SUPERSTITIONS)
    creatures = _fill(_CREATURE_TEMPLATES, _CREATURES)
    out = (_take(rng, figures, 80) + _take(rng, stories, 85) + _take(rng, motifs, 45) + _take(rng, sup, 40)
           + _take(rng, creatures, 45) + _MYTH_ONEOFFS)
    return _decorate_finished(rng, out, _MYTH_SUFFIX, 0.1)


# --- music -----------------------------------------------------------------------------

_INSTRUMENTS = [
    "the violin", "the cello", "the drums", "the bass guitar", "the saxophone", "the trumpet", "the flute",
    "the clarinet", "the harmonica", "the banjo", "the mandolin", "the accordion", "the harp", "the trombone",
    "the electric guitar", "the classical guitar", "the tin whistle", "the djembe", "the oboe", "the French horn",
    "the viola", "the double bass", "the recorder", "the keyboard",
]
_INSTRUMENT_TEMPLATES = [
    "What should a beginner practise in their first month on {x}?",
    "I'm an adult beginner on {x}. How much should I practise each day?",
    "What are the most common beginner mistakes on {x}?", "Is {x} a good first instrument for a child?",
    "how long before i sound decent on {x}", "Should I get a teacher or learn {x} from online videos?",
    "What's the hardest thing about playing {x}?",
    "I've been learning {x} for six months and I've hit a plateau. What now?",
    "Can you give me a 20-minute daily practice routine for {x}?",
    "I'm 60 and thinking of taking up {x}. Is that realistic?",
]
_THEORY = [
    "intervals", "scales", "sharps and flats", "key signatures", "triads", "seventh chords",
    "the pentatonic scale", "modes like Dorian and Mixolydian", "relative minor keys", "cadences",
    "tempo markings like allegro and adagio", "dynamics like piano and forte", "dotted notes", "triplets",
    "how to read the bass clef", "ledger lines", "transposing a song into a different key", "how a capo works",
    "the difference between harmony and melody", "counterpoint", "the 12-bar blues",
    "perfect pitch versus relative pitch", "octaves", "why C major has no sharps or flats",
    "swing rhythm", "the difference between 6/8 and 3/4 time", "diminished chords", "suspended chords",
    "power chords", "how to count rests", "key changes and why songs use them", "musical motifs",
]
_THEORY_AUD = ["", " simply", " like I've never read music", " for a 12-year-old beginner",
                    " in under 100 words", " step by step", " with a simple example"]
_MUSIC_GENRES = [
    "punk", "reggae", "bossa nova", "Motown", "disco", "grunge", "flamenco", "Afrobeat", "bluegrass", "gospel",
    "salsa", "techno", "drum and bass", "ska", "Britpop", "heavy metal", "country music", "soul", "fado",
    "highlife", "cumbia", "Baroque music", "minimalist classical music", "trap", "bebop", "calypso", "qawwali",
    "Bollywood film music", "shoegaze", "zydeco",
]
_MUSIC_GENRE_TEMPLATES = [
    "Where did {x} come from?", "Give me a short history of {x}.", "What are the defining features of {x}?",
    "If I want to get into {x}, where should I start?", "How did {x} influence the music that came after it?",
    "Why did {x} take off when it did?", "what makes {x} sound like {x}",
]
_SONGS = [
    "a song about moving away from my hometown", "a breakup song that isn't bitter",
    "a song for my grandmother's 90th birthday", "a lullaby for my newborn niece", "a protest song about rent",
    "a song about my dog", "a sea shanty about office life", "a love song that avoids clichés",
    "a song about a long night shift at the hospital", "an upbeat song about starting over",
]
_SONG_TEMPLATES = [
    "I'm writing {x}. Can you help me with a chorus?",
    "What structure and chord progression would suit {x}?",
    "Give me some imagery and rhyme ideas for {x}.",
    "I've got a verse but I'm stuck on the chorus for {x}. Any tips?",
]
_MUSIC_ONEOFFS = [
    "I have my grade 5 piano exam in three weeks and my scales are shaky. How should I plan my practice?",
    "How do I deal with stage fright before a recital?",
    "Our band keeps speeding up during songs. How do we fix our timing?",
    "How do I tune a guitar by ear?", "How do I practise with a metronome without getting bored?",
    "I'm joining a community choir and I can't read music. How do I keep up?",
    "What's the best way to memorise a piece for a performance?", "How do I learn to sing in tune?",
    "How do I write a catchy melody?", "How do I stop all my songs sounding the same?",
    "Should I write lyrics or music first?", "How do I get past writer's block as a songwriter?",
    "my fingertips really hurt after guitar practice, is that normal and when does it stop",
    "What's the difference between an acoustic and an electric guitar for a beginner?",
    "Is it worth learning to read sheet music if I play by ear?",
    "How do I start making beats on my laptop with free software?",
    "My daughter practises violin but hates it. How do I keep her going without fights?",
    "How do professional musicians practise differently from hobbyists?",
    "What's the difference between a band and an orchestra in how they rehearse?",
    "How do I find a band to join as an adult beginner drummer?",
    "How does a DJ mix two songs together smoothly?",
    "Why does the same note sound different on a piano and a violin?",
    "How do I record a decent demo at home on a small budget?",
    "What do the numbers in a guitar chord chart mean?",
]
_MUSIC_SUFFIX = ["Keep it short.", "Please be practical.", "I'm a complete beginner.",
                      "Explain it simply.", "Bullet points, please."]


@_category("music", "music: instruments and learning to play, music theory basics, genres and their history, "
                    "songwriting and practice")
def _gen_music(rng: random.Random) -> list[str]:
    inst = _fill(_INSTRUMENT_TEMPLATES, _INSTRUMENTS)
    inst += _fill(["How hard is {x} to learn compared with the piano?"], _INSTRUMENTS[:-1])
    theory = _fill_cross(("Explain {x}{y}.", "Can you explain {x}{y}?"), _THEORY, _THEORY_AUD)
    theory += _fill(["I'm teaching myself music theory and I'm stuck on {x}. Can you help?",
                     "Give me a practical exercise for getting to grips with {x}."], _THEORY)
    genres = _fill(_MUSIC_GENRE_TEMPLATES, _MUSIC_GENRES)
    songs = _fill(_SONG_TEMPLATES, _SONGS)
    out = (_take(rng, inst, 95) + _take(rng, theory, 85) + _take(rng, genres, 75) + _take(rng, songs, 25)
           + _MUSIC_ONEOFFS)
    return _decorate_finished(rng, out, _MUSIC_SUFFIX, 0.1)


# --- economics -------------------------------------------------------------------------

_ECON_CONCEPTS = [
    "inflation", "deflation", "how central banks set interest rates", "supply and demand", "opportunity cost",
    "comparative advantage", "tariffs", "GDP", "what a recession is", "how the unemployment rate is measured",
    "quantitative easing", "fiscal policy versus monetary policy", "the national debt", "a budget deficit",
    "exchange rates", "price elasticity of demand", "monopolies", "price controls", "externalities",
    "the 'invisible hand'", "economies of scale", "marginal cost", "stagflation", "the business cycle",
    "progressive taxation", "a trade deficit", "purchasing power parity", "moral hazard",
    "the tragedy of the commons", "diminishing returns", "market equilibrium", "bond yields",
    "central bank independence", "hyperinflation", "subsidies", "cartels", "sunk costs in business decisions",
    "the difference between nominal and real values", "the money supply", "the labour market",
]
_ECON_AUD = ["", " to a 12-year-old", " like I'm five", " for a first-year economics student",
                  " in two sentences", " with a real-world example", " without any jargon",
                  " as if I run a small business", " for a high-school exam answer"]
_POLICIES = [
    "raising the minimum wage", "tariffs on imported steel", "a universal basic income", "rent control",
    "a wealth tax", "a tax on sugary drinks", "cutting income tax to boost growth", "a four-day working week",
    "free trade agreements", "nationalising the railways", "a carbon tax", "abolishing inheritance tax",
    "raising interest rates to fight inflation", "subsidies for electric cars", "raising the retirement age",
    "price caps on energy bills",
]
_POLICY_TEMPLATES = [
    "What do economists say about {x}?", "What are the main economic arguments for and against {x}?",
    "Who wins and who loses from {x}?", "explain the economics of {x} without taking sides",
]
_HEADLINES = [
    "the central bank raised interest rates by half a percentage point", "inflation fell from 6% to 3%",
    "the unemployment rate rose to 5%", "the economy shrank for two quarters in a row",
    "our currency dropped 10% against the dollar", "oil prices jumped after producers cut output",
    "the government announced a big tariff on imported cars", "the trade deficit hit a record high",
    "house prices have fallen for six months in a row", "government bond yields are rising",
    "the stock market hit an all-time high while wages are flat",
    "the government is cutting spending to reduce the deficit", "a port strike is delaying shipments",
    "the minimum wage is going up next April", "the central bank is pausing rate rises",
    "egg prices doubled after a bird flu outbreak", "there's a shortage of lorry drivers",
    "core inflation is higher than headline inflation", "GDP per person has barely grown in ten years",
    "the central bank cut rates to zero",
]
_HEADLINE_TEMPLATES = [
    "I read that {x}. What does that actually mean for ordinary people?",
    "The news said {x}. Why does that matter?", "Headline today: {x}. Can you explain it in plain English?",
    "so apparently {x}?? is that good or bad", "My teenager asked me why it matters that {x}. How do I explain it?",
]
_ECON_WHYS = [  # (question order, statement order)
    ("are prices so much higher at airports", "prices are so much higher at airports"),
    ("do concerts sell out instead of just charging more", "concerts sell out instead of just charging more"),
    ("does a coffee cost so much more than the beans in it", "a coffee costs so much more than the beans in it"),
    ("do countries trade for things they could make themselves",
     "countries trade for things they could make themselves"),
    ("can't the government just print more money", "the government can't just print more money"),
    ("do petrol prices go up fast but come down slowly", "petrol prices go up fast but come down slowly"),
    ("is rent so high in big cities", "rent is so high in big cities"),
    ("do some jobs pay so much more than others", "some jobs pay so much more than others"),
    ("are diamonds more expensive than water when water is more useful",
     "diamonds cost more than water even though water is more useful"),
    ("does a weak currency help exporters", "a weak currency helps exporters"),
    ("do prices rarely fall back after a burst of inflation", "prices rarely fall back after a burst of inflation"),
    ("do central banks aim for about 2% inflation instead of zero",
     "central banks aim for about 2% inflation instead of zero"),
    ("is there unemployment even when there are lots of job openings",
     "there's unemployment even when there are lots of job openings"),
    ("do airlines charge different people different prices for the same flight",
     "airlines charge different people different prices for the same flight"),
    ("do countries carry national debts they never fully pay off",
     "countries carry national debts they never fully pay off"),
    ("does a drought in another country make my bread more expensive",
     "a drought in another country makes my bread more expensive"),
    ("are things cheaper when you buy in bulk", "things are cheaper when you buy in bulk"),
    ("do interest rates affect house prices", "interest rates affect house prices"),
    ("do governments borrow instead of just raising taxes", "governments borrow instead of just raising taxes"),
    ("does inflation hurt savers but help borrowers", "inflation hurts savers but helps borrowers"),
    ("do stock markets sometimes rise when the economy looks bad",
     "stock markets sometimes rise when the economy looks bad"),
    ("do rich countries subsidise their farmers", "rich countries subsidise their farmers"),
    ("do shops charge 9.99 instead of 10", "shops charge 9.99 instead of 10"),
]
_ECON_WHY_TEMPLATES = [
    "Why {x}?", "why {x}", "What's the economic reason {y}?", "Can an economist explain why {y}?",
    "I've always wondered why {y}. What's the explanation?",
]
_ECON_ONEOFFS = [
    "I'm 16 and just started economics at school. What's the difference between microeconomics and "
    "macroeconomics?",
    "My grandad says a loaf of bread cost pennies when he was young. How do I compare prices across decades "
    "properly?",
    "Why did the 2008 financial crisis happen? Explain it like a story.",
    "What caused the hyperinflation in Germany in 1923?", "What does the Federal Reserve actually do?",
    "What's the difference between the Bank of England and the Treasury?",
    "If a country has a trade deficit, is it losing money?",
    "Why do many economists say rent control can reduce the number of homes available?",
    "Can you explain Keynes versus Hayek in simple terms?",
    "What did Adam Smith actually argue in The Wealth of Nations?", "What's a 'soft landing' in economics?",
    "Why did prices jump so much in so many countries in 2021 and 2022?",
    "I run a small café. If interest rates go up, how could that affect my business?",
    "What's the difference between a recession and a depression?",
    "Why is the US dollar used so much in international trade?",
    "How do sanctions on a country actually affect its economy?", "Is a strong currency good or bad for a country?",
    "What is the 'cost of living crisis' people keep talking about?",
    "My economics teacher said 'there's no such thing as a free lunch'. What does that mean?",
    "explain supply and demand using concert tickets", "Why don't poor countries just print money to get richer?",
    "What does it mean when people say the housing market is 'cooling'?",
    "What's the difference between GDP and GNI?", "Why do economists disagree so much?",
    "How does a government decide how much tax to collect?",
    "Why do some countries have no income tax at all?",
]
_ECON_GOODS = ["a cinema ticket", "a cup of coffee", "a litre of petrol", "a loaf of bread",
                    "a monthly gym membership", "a concert ticket", "a bus fare", "a bag of apples"]


def _econ_exercise(rng: random.Random, kind: int) -> str:
    r = rng.randint
    if kind == 0:
        p1 = r(2, 20)
        p2 = p1 + r(1, max(1, p1 // 2))
        q1 = r(20, 90) * 100
        q2 = q1 - r(1, 15) * 100
        return (f"The price of {rng.choice(_ECON_GOODS)} goes up from {p1} to {p2} and the number sold falls "
                f"from {q1:,} to {q2:,} a week. What's the price elasticity of demand, and is demand elastic or "
                "inelastic?")
    if kind == 1:
        i, s = r(1, 9), rng.choice([0.5, 1, 1.5, 2, 3, 4, 4.5, 5])
        return rng.choice([f"If inflation is {i}% and my savings account pays {s}%, what's my real interest rate?",
                           f"My bank pays {s}% interest but inflation is {i}%. Am I actually getting richer?"])
    if kind == 2:
        n, i = r(2, 12), r(1, 8)
        return f"A country's nominal GDP grew by {n}% last year and inflation was {i}%. Roughly what was real growth?"
    if kind == 3:
        lf = r(20, 90) * 1000
        u = r(1, 12) * lf // 100
        return (f"A town has {lf:,} people in the labour force and {u:,} of them are unemployed. What's the "
                "unemployment rate, and who counts as 'in the labour force'?")
    if kind == 4:
        a = r(80, 150)
        b = a + r(1, 15)
        return f"A basket of everyday goods cost {a} last year and costs {b} this year. What's the inflation rate?"
    if kind == 5:
        c, t = r(10, 60) * 1000, rng.choice([5, 10, 15, 20, 25])
        return (f"A car costs {c:,} to import and the government adds a {t}% tariff. How much does the tariff add, "
                "and who really ends up paying it?")
    i = rng.choice([2, 3, 4, 5, 6, 7, 8, 10])
    return rng.choice([f"If prices rise by {i}% a year, roughly how many years until they double?",
                       f"With {i}% inflation every year, how long until my savings lose half their value?"])


@_category("economics", "economics: inflation, interest rates, supply and demand, trade, taxes, unemployment and "
                        "markets, at different levels and applied to news")
def _gen_economics(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "Can you break down {x}{y}?", "Help me understand {x}{y}."),
                              _ECON_CONCEPTS, _ECON_AUD)
    policies = _fill(_POLICY_TEMPLATES, _POLICIES)
    news = _fill(_HEADLINE_TEMPLATES, _HEADLINES)
    whys = _fill(_ECON_WHY_TEMPLATES, _ECON_WHYS)
    exercises = list(dict.fromkeys(_econ_exercise(rng, i % 7) for i in range(70)))
    return (_take(rng, concepts, 95) + _take(rng, policies, 40) + _take(rng, news, 55) + _take(rng, whys, 60)
            + _take(rng, exercises, 50) + _ECON_ONEOFFS)


# ---------------------------------------------------------------------------------------
# Formats, replies, kids, wildlife, world food, computing: explicit output-format constraints (format), replies to pasted
# messages with a goal or tone (replies), children's questions (kids), wild animals
# (wildlife), dishes and food cultures of the world (worldfood), and computing and internet
# concepts for non-experts (techconcepts).
# ---------------------------------------------------------------------------------------


_FMT_TOPICS = [
    "why the Titanic sank", "the life cycle of a frog", "why bread goes stale",
    "how noise-cancelling headphones work", "the rules of basketball", "what causes earthquakes",
    "the main causes of World War I", "how the stock market works", "how a hybrid car saves fuel",
    "the plot of Macbeth", "the benefits of walking every day", "how a jury trial works",
    "what a credit score is", "the history of the Olympic Games", "how recycling gets sorted",
    "why we have leap years", "how coffee gets from the plant to the cup", "the main ideas of Buddhism",
    "what happens during a solar eclipse", "the pros and cons of a four-day working week",
    "why the Great Wall of China was built", "how to keep a conversation going", "what jet lag is",
    "how an elevator works", "the causes of the 2008 financial crisis", "how wind turbines make electricity",
    "the Apollo 11 mission", "how to write a good cover letter", "why sleep matters for memory",
    "how the immune system fights a cold", "why the Dead Sea is so salty",
    "what makes a strong password", "how chocolate is made from cacao beans", "the Silk Road",
    "how to start running as a complete beginner", "the French Revolution", "how hurricanes form",
    "how a letter gets delivered across the country", "the idea behind the Mediterranean diet",
    "the rise and fall of the dodo", "how a refrigerator keeps food cold", "what the Renaissance was",
    "why some people are left-handed", "how the Panama Canal works",
]
_FMT_TEMPLATES = [
    "Give me exactly three bullet points about {x}. No intro, no conclusion.",
    "Topic: {x}. Format: exactly 5 bullet points, each under 15 words.",
    "Explain {x} in one sentence.", "explain {x} in one sentence, nothing else",
    "Summarise {x} in under 50 words.", "In fewer than 30 words, explain {x}.",
    "Write a title and then one paragraph about {x}.",
    "Give me a short title and a 3-sentence paragraph explaining {x}.",
    "Explain {x} as a numbered list of key points, maximum 6 items.",
    "Put the key facts about {x} in a table with two columns: Fact and Why it matters.",
    "Tell me about {x} in exactly three sentences.",
    "Can you explain {x}? Please answer in 4 bullet points, then a one-line summary.",
    "I only have a minute. Explain {x} in under 40 words.",
    "Explain {x}. Format: a one-sentence answer first, then up to three bullet points with details.",
    "Write about {x} in two short paragraphs, with no bullet points and no headings.",
    "Give me a numbered list of the 5 most important points about {x}.",
    "Explain {x} in a single tweet (under 280 characters).",
    "Return a JSON object about {x} with the keys \"topic\", \"summary\" and \"key_points\" (a list of 3 strings).",
]
_ONE_WORD = [
    "Answer in one word only: what is the largest planet in our solar system?",
    "One word answer please. What gas do plants take in from the air to make food?",
    "In one word, how would you describe the mood of Edvard Munch's The Scream?",
    "Describe the taste of lemons in one word.", "One word: what's the capital of Canada?",
    "Reply with a single word. What do you call a baby kangaroo?",
    "Just one word: which metal is liquid at room temperature?", "Sum up the 1920s in one word.",
    "What's the opposite of 'ancient'? One word only.", "Give me one word that describes a perfect Sunday morning.",
    "Which is the longest bone in the human body? One word.",
    "What language is spoken in Brazil? Answer with one word.",
    "Which planet is known as the Red Planet? Just the name.",
    "If you had to describe autumn in one word, what would it be?",
    "Give me a one-word name for a cosy café.", "In one word, what's the main ingredient of guacamole?",
    "One word only: what's the hardest natural substance?", "What instrument has 88 keys? One-word answer.",
    "What's the chemical symbol for gold? Just the symbol, nothing else.",
    "Which ocean lies between Africa and Australia? One word.", "What do you call a group of lions? One word.",
    "one word to describe how you feel on a Friday afternoon", "Describe the colour of the sea in a storm in one word.",
    "What's the plural of 'cactus'? Just the word.", "Single word answer: what is the fear of spiders called?",
]
_YES_NO = [
    "Yes or no, then one reason: is it worth learning to touch-type?",
    "Answer yes or no first, then explain in one sentence: can you see the Great Wall of China from space "
    "with the naked eye?",
    "Is a tomato botanically a fruit? Start your answer with yes or no.",
    "Should I stretch before going for a run? Yes or no, then a short reason.",
    "Can you freeze bread? Answer yes or no and give one tip.",
    "Is it rude to leave a group chat without saying anything? Yes or no, then why.",
    "Is Pluto bigger than Earth's Moon? Reply yes or no, then give the reason.",
    "Should I learn Python or JavaScript first? Pick one and give a single reason.",
    "Rent or buy, for someone who moves city every two years? Pick one and give one reason.",
    "Is honey healthier than sugar? Yes or no, then two sentences max.",
    "Is it safe to look at a solar eclipse through sunglasses? Yes or no and why.",
    "are bats blind? yes or no then explain",
    "Is Mount Everest the tallest mountain if you measure from base to peak? Yes or no, then a one-line reason.",
    "Do goldfish really have a three-second memory? Answer yes or no, then explain briefly.",
    "Can lightning strike the same place twice? Yes or no first, then the explanation.",
    "Should I reply to a work email on a Sunday? Yes or no, then your reasoning in one line.",
    "Is it worth buying an extended warranty on a laptop? Give a yes or no, then one reason.",
    "Does cracking your knuckles cause arthritis? Yes or no, then the evidence in a sentence.",
    "Is it okay to wear white to a wedding as a guest? Yes or no, and why.",
    "Are tomatoes and potatoes related? Yes or no, then explain.",
    "do we only use 10% of our brains? yes or no + a short reason",
    "Is Greenland bigger than Australia? Answer yes or no, then explain why maps make it look the way it does.",
    "Can I leave my phone charging overnight without ruining the battery? Yes or no, then one sentence.",
    "Is a whale a fish? One word, yes or no, then a sentence explaining.",
    "Is it cheaper to run a dishwasher than to wash up by hand? Yes or no, then one reason.",
]
_JSON = [
    ("five European capitals", "\"city\", \"country\" and \"population_estimate\""),
    ("three classic novels", "\"title\", \"author\" and \"year\""),
    ("four fictional customers", "\"id\", \"name\", \"email\" and \"signup_date\""),
    ("the planets of the solar system", "\"name\", \"order_from_sun\" and \"has_rings\""),
    ("three healthy breakfast ideas", "\"name\", \"ingredients\" (a list) and \"minutes\""),
    ("five made-up products for an online shop", "\"sku\", \"name\", \"price\" and \"in_stock\""),
    ("the days of the week", "\"day\", \"abbreviation\" and \"is_weekend\""),
    ("three famous bridges", "\"name\", \"city\" and \"year_opened\""),
    ("four study tips", "\"tip\" and \"why_it_works\""),
    ("a weekly workout plan", "\"day\", \"activity\" and \"duration_minutes\""),
    ("three fictional employees", "\"name\", \"department\", \"start_year\" and \"manager\""),
    ("five common houseplants", "\"plant\", \"light\" and \"watering\""),
    ("the seven continents", "\"name\" and \"approx_area_km2\""),
    ("a shopping list for a picnic", "\"item\", \"quantity\" and \"category\""),
    ("three upcoming calendar events", "\"title\", \"date\", \"time\" and \"location\""),
]
_JSON_TEMPLATES = [
    "Give me JSON only: a list of {x}, each with the keys {y}.",
    "Output {x} as JSON with the keys {y}. No explanation.",
    "I need test data. Create {x} as a JSON array where every object has {y}.",
]
_TABLES = [
    ("the four seasons", "season, months in the Northern Hemisphere, typical weather"),
    ("three ways to commute to work", "method, cost, time, one pro, one con"),
    ("three popular programming languages", "language, main use, difficulty for beginners"),
    ("coffee, tea and hot chocolate", "drink, caffeine, typical serving size"),
    ("the planets from Mercury to Mars", "planet, average distance from the Sun, number of moons"),
    ("renting versus buying a home", "factor, renting, buying"),
    ("four types of renewable energy", "source, how it works, one drawback"),
    ("train, plane and bus for a 500 km trip", "option, typical time, cost, comfort"),
    ("the Harry Potter books", "number, title, year published"),
    ("the three states of matter", "state, shape, volume, example"),
    ("the main types of clouds", "cloud type, height, what weather it brings"),
]
_TABLE_TEMPLATES = [
    "Make a table comparing {x} with these columns: {y}.", "Table please: {x}. Columns: {y}.",
    "Can you put {x} in a markdown table ({y})? Nothing outside the table.",
]
_HAIKU = [
    "a Monday morning commute", "a cat asleep in a patch of sun", "losing your keys", "a cup of green tea",
    "a thunderstorm at night", "the first night in an empty new flat", "a forgotten umbrella",
    "the last day of the summer holidays",
    "a bug in my code", "a busy airport at dawn", "a long queue at the post office", "my grandmother's garden",
    "a full moon over the sea", "the smell of rain on hot pavement", "a dog waiting by the door",
]
_HAIKU_TEMPLATES = [
    "A haiku about {x}, please. Just the three lines, no title.", "haiku about {x} (5-7-5, no rhyming)",
    "Write one haiku about {x}, then a one-sentence explanation of the image you chose.",
]
_NUMBERED = [
    ("5", "questions to ask before signing a lease"), ("7", "ways to save water at home"),
    ("10", "words that rhyme with 'light'"), ("6", "famous paintings everyone should know"),
    ("8", "cheap date ideas"), ("5", "signs that a houseplant is being overwatered"),
    ("4", "things to check before a long drive"), ("10", "countries in South America"),
    ("6", "classic films from the 1950s"), ("5", "stretches for people who sit at a desk all day"),
    ("3", "tricks for remembering people's names"), ("12", "months of the year in Spanish"),
]
_NUMBERED_TEMPLATES = [
    "Give me a numbered list of {x} {y}. Just the list.", "List {x} {y}. Numbered, one per line, no extra text.",
    "{x} {y}, numbered please",
]


@_category("format", "requests with explicit output-format constraints: bullets, one word, tables, JSON, word limits")
def _gen_format(rng: random.Random) -> list[str]:
    topics = _take(rng, _fill(_FMT_TEMPLATES, _FMT_TOPICS), 170)
    structured = (_take(rng, _fill(_JSON_TEMPLATES, _JSON), 35)
                  + _take(rng, _fill(_TABLE_TEMPLATES, _TABLES), 30)
                  + _take(rng, _fill(_HAIKU_TEMPLATES, _HAIKU), 35)
                  + _take(rng, _fill(_NUMBERED_TEMPLATES, _NUMBERED), 30))
    return topics + structured + _ONE_WORD + _YES_NO


_MESSAGES = [  # (who sent it, the message, what the user wants the reply to do)
    ("my landlord", "Hi, just a heads-up that the rent will be going up by £120 a month from the start of next "
     "month. Any questions, give me a shout. Martin",
     ["ask for the increase to be delayed or reduced", "ask what the increase is based on",
      "accept it but ask for the broken boiler to be fixed first"]),
    ("my landlord", "Hello, I'll be coming round on Thursday at 10am to show the flat to a potential buyer. "
     "Please make sure it's tidy.",
     ["say Thursday doesn't work and suggest another time", "agree but ask for more notice next time",
      "ask whether I'll still be able to stay if the flat is sold"]),
    ("my old landlord", "Hi. I've checked the flat after you moved out and I'll be keeping £300 of the deposit "
     "for cleaning and a stain on the carpet.",
     ["dispute it politely and ask for photos", "ask for an itemised breakdown of the costs",
      "point out that the stain was already there when I moved in"]),
    ("my boss", "Hey, any chance you could stay late tonight to finish the client slides? I know it's short notice.",
     ["decline politely because I have plans", "say yes but make clear I can only stay until 7",
      "offer to finish them first thing tomorrow instead"]),
    ("my manager", "I noticed the report went out with a couple of errors in the numbers. Can we talk about what "
     "happened?",
     ["apologise and explain how I'll fix it", "own the mistake without sounding defensive",
      "suggest a time to talk today"]),
    ("my boss", "We'd love you to lead the new onboarding project on top of your current work. Thoughts?",
     ["say yes but ask what I can drop to make room", "decline because my workload is already full",
      "ask for more details before committing"]),
    ("a colleague", "Hi! Could you cover my Saturday shift? My sister's getting married and I completely forgot to "
     "request the day off.",
     ["say yes and ask them to cover one of my shifts later", "decline kindly because I'm busy that day",
      "offer to do half the shift"]),
    ("a coworker", "Just FYI, I took your notes from Tuesday's meeting and put them in my presentation, hope "
     "that's ok!",
     ["say I'd like to be credited", "set a boundary without starting a fight",
      "stay friendly but ask them to check with me next time"]),
    ("a colleague", "Can you review my 40-page proposal by tomorrow morning? Sorry, I know it's a lot.",
     ["say I can only review the summary section", "decline and suggest someone else who could help",
      "agree but say I'll need until tomorrow afternoon"]),
    ("a friend", "heyyy so I'm a bit short this month, could you lend me 200 until payday? I'll pay you back "
     "I promise",
     ["say no without hurting the friendship", "offer to lend a smaller amount",
      "say yes but agree a clear date to pay it back"]),
    ("a friend", "Are you still coming to my birthday dinner on Saturday? It's at 8 at Luigi's, 45 per person "
     "for the set menu.",
     ["decline because it's too expensive for me right now", "say yes but warn that I'll have to leave early",
      "ask if I can just join for drinks afterwards"]),
    ("my best friend", "I feel like you've been ignoring me lately. Did I do something wrong?",
     ["apologise and explain I've been overwhelmed", "reassure them and suggest meeting up this week",
      "be honest that something they said hurt me"]),
    ("a friend", "Can I stay at yours for a week while my flat gets repainted? I'll be super quiet!",
     ["say yes but only for three nights", "decline politely because my place is too small",
      "say yes and set a few house rules"]),
    ("my neighbour", "Hi, I'm at number 14. Your dog barks for most of the day when you're out and it's getting "
     "really hard to work from home.",
     ["apologise and explain what I'm going to do about it", "thank them for telling me and ask when it happens",
      "apologise and ask them to tell me if it keeps happening"]),
    ("my neighbour", "Hello! We're having a garden party on Saturday and it might go on a bit late. Hope that's "
     "alright, you're welcome to pop by!",
     ["thank them and decline the invite", "say it's fine but ask them to keep the music down after 11",
      "accept the invitation and offer to bring something"]),
    ("my neighbour", "Your tree is hanging over our fence and dropping leaves all over our lawn. Could you cut it "
     "back?",
     ["agree and suggest a date", "suggest we split the cost of a tree surgeon",
      "explain that the tree belongs to my landlord, not me"]),
    ("a customer of my bakery", "I ordered a birthday cake for Saturday and it arrived with the wrong name on it. "
     "It was for my daughter's party and I'm really upset.",
     ["apologise and offer a full refund", "apologise sincerely and offer a discount on their next order",
      "ask for the order number so I can sort it out"]),
    ("a student at my yoga studio", "Hi, I booked a class for tomorrow but something's come up. Can I get a full "
     "refund even though it's less than 24 hours' notice?",
     ["say no to a refund but offer a credit for another class", "agree to a refund as a one-off",
      "explain the cancellation policy kindly"]),
    ("a client", "We love the logo drafts! Could you do five more versions by Monday? Same budget.",
     ["explain that extra versions will cost more", "agree to two more versions, not five",
      "push back politely on the deadline"]),
    ("an online shop", "Thank you for your order! Unfortunately the jacket you ordered is out of stock and your "
     "delivery will be delayed by 3-4 weeks.",
     ["cancel the order and ask for a refund", "ask if they can send a different colour instead",
      "ask for a discount for the delay"]),
    ("the hotel I stayed at", "Dear guest, thank you for staying with us. We hope you enjoyed your stay and would "
     "love to hear your feedback!",
     ["mention the broken air conditioning and ask for a partial refund",
      "give polite feedback about the noise from the bar", "thank them briefly"]),
    ("a furniture company", "Your sofa delivery is confirmed for Tuesday between 7am and 7pm. Someone must be "
     "home to sign for it.",
     ["ask for a narrower time slot", "ask to move the delivery to a Saturday",
      "ask if they can leave it with a neighbour"]),
    ("my son's teacher", "Hi, I wanted to let you know that Leo has been quite distracted in class this week and "
     "didn't hand in his homework. Is everything ok at home?",
     ["thank them and explain that we're in the middle of moving house", "ask for a meeting to discuss it",
      "reassure them and ask what they've noticed"]),
    ("my daughter's teacher", "Reminder: the class trip to the science museum is next Friday. We still need two "
     "parent volunteers!",
     ["volunteer", "say I can't volunteer but offer to help another way", "ask what volunteering involves first"]),
    ("my professor", "Your essay was submitted two days after the deadline. Per the course policy, a late penalty "
     "will be applied.",
     ["explain I was ill and ask if I can submit a doctor's note", "accept it politely and thank them",
      "ask whether the penalty can be reduced"]),
    ("my uni friends' group chat", "ok so are we doing Lisbon in May or what?? flights are like 90 return but we "
     "need to book by friday!!",
     ["say I'm in but need to check my dates", "say I can't afford it this time",
      "suggest somewhere cheaper instead"]),
    ("the family group chat", "Mum here. Christmas at ours again this year? I'll need everyone to bring a dish. "
     "Reply by Sunday please xx",
     ["say we're going to the in-laws this year", "say yes and offer to bring dessert",
      "ask if we could host instead"]),
    ("my football team's group chat", "Lads, we're short for Sunday's match. Who can play? Kick-off 10am.",
     ["say I can't make it this week", "say I can play but only the first half",
      "say yes and offer to bring the spare kit"]),
    ("my neighbourhood group chat", "Has anyone else noticed the streetlight on Elm Road has been out for two "
     "weeks? Someone should report it.",
     ["say I'll report it", "say that I already reported it last week", "suggest that we all report it"]),
    ("my ex", "Hey, I know it's been a while. I was wondering if you'd want to grab a coffee sometime?",
     ["decline kindly", "agree to a coffee but make it clear it's just as friends",
      "say I need some time to think about it"]),
    ("my flatmate", "Can we talk about the cleaning rota? I feel like I've done the kitchen every week this month.",
     ["apologise and suggest a new rota", "disagree politely and point out what I've done",
      "agree and offer to do the next two weeks"]),
    ("a recruiter on LinkedIn", "Hi! Your profile looks like a great fit for a senior role at a fast-growing "
     "startup. Do you have 15 minutes for a quick call this week?",
     ["say I'm not looking right now but open to hearing about future roles", "ask for the salary range first",
      "agree and suggest a time"]),
    ("my mother-in-law", "We thought we'd come and stay for two weeks in August to help with the baby. Let us "
     "know which days suit!",
     ["say one week would be better", "say yes warmly", "suggest they visit later when we're more settled"]),
]
_REPLY_FORMS = [
    "{W} sent me this:\n\n\"{t}\"\n\nCan you write a reply? I want to {a}.",
    "Help me reply to this message from {w}. I want to {a}.\n\n{t}",
    "{t}\n\n^ that's from {w}. how do i reply if i want to {a}",
    "Write a short reply to this message from {w}. Goal: {a}.\n\n\"{t}\"",
    "I got this from {w} and I'm not sure how to respond:\n\n{t}\n\nI'd like to {a}. What should I say?",
    "Reply to this for me (it's from {w}) and {a}:\n{t}",
]
_REPLY_TONES = [
    "Keep it short.", "Make it sound friendly, not stiff.", "Keep the tone professional.",
    "Give me two options, one formal and one casual.", "Not too formal please.", "Under 80 words.",
    "I don't want to sound passive-aggressive.", "Make it warm but firm.",
]


@_category("replies", "replies to pasted messages from landlords, bosses, friends, neighbours, customers and more")
def _gen_replies(rng: random.Random) -> list[str]:
    pool, ends_with_message = [], {}
    for who, text, goals in _MESSAGES:
        forms = [f.replace("{W}", _cap(who)).replace("{w}", who) for f in _REPLY_FORMS]
        for p in _pasted([text], goals, forms):
            pool.append(p)
            ends_with_message[p] = p.endswith(text)
    # a tone constraint goes after the user's own words, never glued onto the pasted message
    return [p if ends_with_message[p] else _decorate_finished(rng, [p], _REPLY_TONES, 0.3)[0]
            for p in _take(rng, pool, 330)]


_KID_QS = [  # (as a child asks it, as a parent relays it)
    ("why is grass green", "why grass is green"),
    ("where does the sun go at night", "where the sun goes at night"),
    ("how does the moon stay up in the sky", "how the moon stays up in the sky"),
    ("why do we have belly buttons", "why we have belly buttons"),
    ("why can't i tickle myself", "why you can't tickle yourself"),
    ("why does my tummy rumble when i'm hungry", "why your tummy rumbles when you're hungry"),
    ("why do we have eyebrows", "why we have eyebrows"),
    ("why do my teeth fall out", "why baby teeth fall out"),
    ("why do bruises go purple and then yellow", "why bruises go purple and then yellow"),
    ("how do spiders make webs", "how spiders make webs"),
    ("do worms have eyes", "whether worms have eyes"),
    ("why do bees sting", "why bees sting"),
    ("how do fish breathe under the water", "how fish breathe underwater"),
    ("why do leaves fall off the trees", "why trees lose their leaves in autumn"),
    ("where does rain come from", "where rain comes from"),
    ("why is snow white", "why snow is white"),
    ("how do planes stay in the sky", "how planes stay up in the sky"),
    ("why do old people get wrinkles", "why people get wrinkles when they get old"),
    ("why do we have to sleep", "why we have to sleep"),
    ("why do i have to eat vegetables", "why kids have to eat their vegetables"),
    ("where does the water go when you flush the toilet", "where the water goes when you flush the toilet"),
    ("how does the fridge make things cold", "how the fridge keeps things cold"),
    ("why do magnets stick to the fridge", "why magnets stick to the fridge"),
    ("why do bubbles pop", "why bubbles pop"),
    ("what makes the waves in the sea", "what makes waves in the sea"),
    ("why is thunder so loud", "why thunder is so loud"),
    ("how do seeds know which way is up", "how seeds know which way is up"),
    ("why do we have two eyes and not one", "why we have two eyes instead of one"),
    ("why is the moon out in the daytime sometimes", "why you can sometimes see the moon in the daytime"),
    ("how big is space", "how big space is"),
    ("is the sun a star", "whether the sun is a star"),
    ("why can't we breathe in space", "why we can't breathe in space"),
    ("what are stars made of", "what stars are made of"),
    ("how do astronauts go to the toilet", "how astronauts go to the toilet"),
    ("why is my shadow so long in the evening", "why shadows get so long in the evening"),
    ("why are flamingos pink", "why flamingos are pink"),
    ("why do giraffes have such long necks", "why giraffes have such long necks"),
    ("why do snails carry their houses on their backs", "why snails carry their shells around"),
    ("how do birds know how to build nests", "how birds know how to build nests"),
    ("why do we get goosebumps when we're cold", "why we get goosebumps when we're cold"),
    ("why do we burp", "why we burp"),
    ("why does my heart go fast when i run", "why your heart beats faster when you run"),
    ("how does my body turn food into energy", "how our bodies turn food into energy"),
    ("why do people speak different languages", "why people around the world speak different languages"),
    ("where do rainbows come from", "where rainbows come from"),
    ("how does the tv get pictures in it", "how the TV gets its pictures"),
    ("how does my voice get through the phone to grandma", "how your voice travels through the phone"),
    ("how do batteries work", "how batteries work"),
    ("why does ice melt", "why ice melts"),
    ("why aren't there dinosaurs any more", "why there are no dinosaurs any more"),
    ("are birds really dinosaurs", "whether birds are really dinosaurs"),
    ("how do caterpillars turn into butterflies", "how caterpillars turn into butterflies"),
    ("why do cats have whiskers", "why cats have whiskers"),
    ("why do i feel grumpy when i'm tired", "why you feel grumpy when you're tired"),
    ("why do people cry when they're happy", "why people cry when they're happy"),
    ("why do i get butterflies in my tummy", "why you get butterflies in your tummy when you're nervous"),
    ("why am i scared of the dark", "why kids get scared of the dark"),
    ("why do grown-ups have to go to work", "why grown-ups have to go to work"),
    ("why is the earth round", "why the earth is round"),
    ("how did the first people learn to talk", "how the first people learned to talk"),
    ("where does the wind come from", "where the wind comes from"),
    ("why does it get dark so early in winter", "why it gets dark so early in winter"),
    ("how do ants find their way home", "how ants find their way home"),
    ("why do my ears hurt on an aeroplane", "why your ears hurt on an aeroplane"),
]
_KID_VOICE = [  # typed by the child: lowercase, or capitalised (then with "I", not "i")
    "i'm 7 and i want to know {x}", "hi! i am 8 years old. {x}?", "{x}?? my brother says he knows but he doesnt",
]
_KID_VOICE_CAPS = [
    "{X}?", "{X}? explain it so a kid can understand please", "My teacher didn't know so I'm asking you. {X}?",
    "This is Mia, I'm 6 and my mum is typing for me. {X}?",
]
_KID_TEMPLATES = [  # relayed by a grown-up
    "My 6-year-old asked me {y}. How do I explain it?", "my daughter (5) keeps asking {y}. what's a simple answer",
    "How would you explain {y} to a four-year-old?",
    "My son wants to know {y} and honestly I don't know either. Kid-friendly answer please.",
    "Bedtime question from my 7 year old: {x}? Help!",
    "My kids are 4 and 9 and both want to know {y}. Can you give me an answer that works for both?",
    "Can you explain {y} in a way a preschooler would get? Two or three sentences.",
    "I'm a nanny and the little boy I look after asked me {y}. What's a good way to answer?",
    "Grandkid question of the day: {y}. She's 6. Give me a short answer I can read to her.",
]
_KID_HARD = [
    "My 5-year-old asked why grandpa had to die. How do I answer gently and honestly?",
    "my 4 year old asked where babies come from. what's an age-appropriate answer",
    "My 7-year-old asked why some people don't have homes. How can I explain it?",
    "Our dog died last week and my 6-year-old keeps asking if he'll come back. What do I say?",
    "My son (8) asked why people fight wars. How do I talk about it without scaring him?",
    "My daughter asked why her friend has two mums. What's a simple, kind way to explain different families?",
    "My 6 year old asked 'why do I have to share?' and I want a better answer than 'because I said so'.",
    "My 5-year-old asked what happens when we die. We're not religious. How could I answer?",
    "my kid asked why her skin is a different colour from her best friend's. how do i explain it simply",
    "My 9-year-old wants to know why people get divorced. It's a friend's parents, not us. How do I explain it?",
    "My 4-year-old asked, loudly, why the man in the shop was in a wheelchair. How do I talk to him about it?",
    "My daughter (7) asked why she sometimes feels angry for no reason. How can I help her understand it?",
    "my 6 year old asked if monsters are real. how do i answer without making bedtime worse",
    "My son is 8 and asked me straight out if Santa is real. What do I say?",
    "My 5-year-old asked why the new baby gets more attention than her. How should I answer?",
    "My 10-year-old asked why some kids at school are mean. What should I tell him?",
    "My son asked why grandma keeps forgetting his name. She has dementia. How do I explain that to a 7-year-old?",
    "My 6-year-old asked why we have to pay for things in shops. How do I explain money simply?",
    "My daughter asked who decides what's right and what's wrong. She's 9! How do I even answer that?",
    "My 8-year-old asked why the news is always sad. How do I respond?",
    "My twins (6) asked why they look the same but like different things. Fun way to explain it?",
    "my 5 yr old asked why her best friend is moving away and whether they can still be friends. what do i say",
    "My 7-year-old asked why people have to get old. How do I answer without making it scary?",
    "My son (6) asked why he has to say sorry if he didn't mean it. Good answer?",
]


@_category("kids", "questions as children ask them, or as parents relay them: nature, body, space, feelings")
def _gen_kids(rng: random.Random) -> list[str]:
    caps = [p.replace(" i ", " I ").replace(" i'm ", " I'm ") for p in _fill(_KID_VOICE_CAPS, _KID_QS)]
    child = _take(rng, _fill(_KID_VOICE, _KID_QS) + caps, 110)
    return child + _take(rng, _fill(_KID_TEMPLATES, _KID_QS), 180) + _KID_HARD


_SPECIES = [  # (plural, singular with article)
    ("snow leopards", "a snow leopard"), ("humpback whales", "a humpback whale"), ("red foxes", "a red fox"),
    ("grey wolves", "a grey wolf"), ("honey badgers", "a honey badger"), ("axolotls", "an axolotl"),
    ("pangolins", "a pangolin"), ("orcas", "an orca"), ("emperor penguins", "an emperor penguin"),
    ("platypuses", "a platypus"), ("Komodo dragons", "a Komodo dragon"), ("cheetahs", "a cheetah"),
    ("African elephants", "an African elephant"), ("orangutans", "an orangutan"), ("bald eagles", "a bald eagle"),
    ("sea otters", "a sea otter"), ("hummingbirds", "a hummingbird"), ("manta rays", "a manta ray"),
    ("great white sharks", "a great white shark"), ("barn owls", "a barn owl"), ("polar bears", "a polar bear"),
    ("capybaras", "a capybara"), ("koalas", "a koala"), ("wombats", "a wombat"), ("narwhals", "a narwhal"),
    ("leatherback turtles", "a leatherback turtle"), ("poison dart frogs", "a poison dart frog"),
    ("meerkats", "a meerkat"), ("beavers", "a beaver"), ("mountain gorillas", "a mountain gorilla"),
    ("giant pandas", "a giant panda"), ("red kangaroos", "a red kangaroo"), ("spotted hyenas", "a spotted hyena"),
    ("Atlantic puffins", "an Atlantic puffin"), ("chimpanzees", "a chimpanzee"), ("vampire bats", "a vampire bat"),
    ("golden eagles", "a golden eagle"), ("Arctic foxes", "an Arctic fox"), ("dugongs", "a dugong"),
    ("giant Pacific octopuses", "a giant Pacific octopus"), ("Tasmanian devils", "a Tasmanian devil"),
    ("Eurasian lynxes", "a Eurasian lynx"),
    ("bottlenose dolphins", "a bottlenose dolphin"), ("hedgehogs", "a wild hedgehog"),
]
_SPECIES_TEMPLATES = [
    "What do {x} eat in the wild?", "Where do {x} live?", "what kind of habitat do {x} need",
    "Are {x} endangered? What's their conservation status?", "How long do {x} live in the wild?",
    "Tell me three surprising facts about {x}.", "Do {x} live alone or in groups?",
    "What are the main threats to {x} today?", "How do {x} find their food?",
    "What does {y} actually do all day?", "What adaptations help {x} survive where they live?",
    "Are {x} dangerous to humans?", "How big does {y} get?", "What hunts {x}, if anything?",
    "How do {x} communicate with each other?", "Where could I see {x} in the wild, and when is the best time?",
    "I just watched a documentary about {x}. What else should I know about them?",
    "How much care do baby {x} get from their parents?",
]
_WILD_QS = [
    "How do Arctic terns manage to fly from the Arctic to the Antarctic and back every year?",
    "Why do salmon go back to the river where they hatched to spawn?",
    "How do monarch butterflies find their way to Mexico when none of them has made the trip before?",
    "Why do wildebeest migrate in a huge loop through the Serengeti and the Maasai Mara?",
    "How do bats use echolocation to catch insects in the dark?", "Why do flamingos often stand on one leg?",
    "How do chameleons change colour, and why do they do it?",
    "How can wood frogs survive being partly frozen in winter?", "How do camels go so long without drinking?",
    "How can owls turn their heads so far round?", "Why do male lions have manes?",
    "How do electric eels make electricity?", "How do sloths survive when they move so slowly?",
    "Why do humpback whales leap out of the water?", "How do leafcutter ants grow their own food?",
    "How do cuckoos trick other birds into raising their chicks?", "Why do some animals play dead?",
    "How do geckos walk up walls?", "Is it true that dung beetles navigate using the Milky Way?",
    "Do elephants really mourn their dead?", "How clever are crows, really?",
    "How do sea turtles find their way back to the beach where they hatched?",
    "Do lemmings really jump off cliffs? Where did that idea come from?",
    "How do squirrels remember where they buried their nuts?", "Why do fireflies glow?",
    "How do hummingbirds hover in one spot?", "How do penguins stay warm in Antarctica?",
    "How do desert animals survive the heat of the day?", "How do deep-sea fish cope with the pressure and the dark?",
    "Why do some birds migrate while others stay put all year?", "How do bears get ready for winter?",
    "What's the fastest animal on land, in the air and in the water?", "Which animal has the longest migration?",
    "Why do wolves howl?", "How do meerkats take turns keeping watch?",
    "Why do starlings fly in those huge swirling flocks in winter?",
    "How do cleaner fish and the bigger fish they clean get along?", "Why do beavers build dams?",
    "How do mantis shrimp punch so hard?", "How do migrating birds know when it's time to leave?",
    "Why are hippos considered one of the most dangerous animals in Africa?",
    "What's the difference between hibernation and torpor?",
    "How do Arctic hares and stoats change colour between summer and winter?",
    "Why are some frogs so brightly coloured?", "Which wild animals use tools?",
    "How do wild animals know a storm is coming?", "What is the smartest animal apart from humans?",
]
_CONSERVATION = [
    "How did bald eagles recover in the US after nearly disappearing?",
    "Why are pangolins so heavily trafficked?", "What happened to the northern white rhino? Is there any hope left?",
    "Why did vulture numbers crash in India in the 1990s?", "What changed in Yellowstone after wolves came back?",
    "What is a keystone species? Give me a few examples.",
    "How do scientists count how many tigers are left in the wild?",
    "Giant pandas went from 'endangered' to 'vulnerable' a few years ago. What does that actually mean?",
    "What does 'critically endangered' mean on the IUCN Red List?",
    "Why are so many frogs and other amphibians declining around the world?",
    "What is rewilding, and has it worked anywhere?", "How do wildlife corridors help animals?",
    "What is being done to save the vaquita?", "Why do conservationists care so much about top predators?",
    "Why are more elephants being born without tusks in some places?",
    "What are some of the biggest animal comebacks of the last 50 years?",
    "How have cane toads harmed native wildlife in Australia?",
    "What's the difference between 'extinct in the wild' and 'extinct'?",
    "Can extinct animals like the woolly mammoth really be brought back?",
    "How can ordinary people help endangered wildlife without travelling anywhere?",
]
_SPECIES_PAIRS = [
    ("leopards", "jaguars"), ("alligators", "crocodiles"), ("frogs", "toads"),
    ("seals", "sea lions"), ("moths", "butterflies"), ("African elephants", "Asian elephants"),
    ("dolphins", "porpoises"), ("wolves", "coyotes"), ("crows", "ravens"), ("tortoises", "turtles"),
    ("cheetahs", "leopards"), ("American bison", "water buffalo"), ("hawks", "falcons"),
    ("gorillas", "chimpanzees"), ("wasps", "bees"), ("brown bears", "black bears"), ("emus", "ostriches"),
]
_PAIR_TEMPLATES = [
    "What's the difference between {x} and {y}?", "How can I tell {x} and {y} apart?",
    "{X} vs {y}: how do they differ in size, diet and habitat?", "are {x} and {y} closely related",
]
_WILD_SUFFIX = ["Keep it short.", "Answer for a 10-year-old.", "A few sentences is fine.",
                     "Include one fun fact.", "Use bullet points."]


@_category("wildlife", "wild animals: behaviour, habitats, diets, adaptations, migration, conservation, comparisons")
def _gen_wildlife(rng: random.Random) -> list[str]:
    species = _take(rng, _fill(_SPECIES_TEMPLATES, _SPECIES), 200)
    pairs = _take(rng, _fill(_PAIR_TEMPLATES, _SPECIES_PAIRS), 55)
    return _decorate_finished(rng, species + _WILD_QS + _CONSERVATION + pairs, _WILD_SUFFIX, 0.15)


_WORLDFOOD_DISHES = [  # (dish, a place it is strongly associated with)
    ("pho", "Vietnam"), ("bibimbap", "South Korea"), ("ceviche", "Peru"), ("poutine", "Quebec"),
    ("khachapuri", "Tbilisi"), ("pad thai", "Thailand"), ("laksa", "Malaysia"), ("tagine", "Morocco"),
    ("feijoada", "Brazil"), ("bobotie", "South Africa"), ("gallo pinto", "Costa Rica"), ("bandeja paisa", "Medellín"),
    ("borscht", "Ukraine"), ("goulash", "Hungary"), ("rendang", "Indonesia"), ("nasi lemak", "Kuala Lumpur"),
    ("smørrebrød", "Denmark"), ("pastel de nata", "Lisbon"), ("cheese fondue", "Switzerland"),
    ("okonomiyaki", "Osaka"), ("masala dosa", "South India"), ("chicken adobo", "the Philippines"),
    ("bunny chow", "Durban"), ("currywurst", "Berlin"), ("khao soi", "Chiang Mai"), ("plov", "Uzbekistan"),
    ("mansaf", "Jordan"), ("haggis", "Scotland"), ("mole poblano", "Puebla"), ("injera", "Ethiopia"),
    ("tteokbokki", "Seoul"), ("gumbo", "New Orleans"), ("Peking duck", "Beijing"), ("dim sum", "Hong Kong"),
    ("pozole", "Mexico"), ("moussaka", "Greece"), ("beef stroganoff", "Russia"), ("bigos", "Poland"),
    ("cacio e pepe", "Rome"), ("koshari", "Cairo"), ("burek", "Sarajevo"), ("poke", "Hawaii"),
    ("jerk chicken", "Jamaica"), ("lechon", "Cebu"), ("kaiseki", "Kyoto"), ("hangi", "New Zealand"),
]
_DISH_TEMPLATES = [
    "What is {x}?", "what's actually in {x}", "What does {x} taste like? I've never had it.",
    "What's the history of {x}?", "Are there regional versions of {x}, and how do they differ?",
    "How is {x} traditionally eaten? Any etiquette I should know?", "What would you drink with {x}?",
    "Is {x} usually spicy?",
    "I tried {x} for the first time last night and loved it. What's the story behind it?",
    "Is {x} an everyday meal or more of a special-occasion dish?",
    "I'm vegetarian. Is {x} normally made with meat, and are there meat-free versions?",
    "Tell me about {x}: where it comes from, what's in it and when people eat it.",
    "My friend says {x} is the best thing she's ever eaten. What is it, and why do people love it?",
]
_DISH_PLACE_TEMPLATES = [
    "I'm going to {y} next month. Should I try {x} while I'm there, and what should I know before ordering it?",
    "Why is {x} such a big deal in {y}?", "How is {x} in {y} different from the versions you get abroad?",
]
_CUISINES = [  # (country, adjective)
    ("Japan", "Japanese"), ("Ethiopia", "Ethiopian"), ("Mexico", "Mexican"), ("India", "Indian"),
    ("Italy", "Italian"), ("South Korea", "Korean"), ("Morocco", "Moroccan"), ("Peru", "Peruvian"),
    ("Vietnam", "Vietnamese"), ("Turkey", "Turkish"), ("Lebanon", "Lebanese"), ("Nigeria", "Nigerian"),
    ("Brazil", "Brazilian"), ("Spain", "Spanish"), ("China", "Chinese"), ("Thailand", "Thai"),
    ("France", "French"), ("Greece", "Greek"), ("Indonesia", "Indonesian"), ("Sweden", "Swedish"),
    ("Poland", "Polish"), ("Iran", "Iranian"), ("the Philippines", "Filipino"),
]
_CUISINE_TEMPLATES = [
    "What are the basic table manners in {x}?", "What's a typical breakfast in {x}?",
    "What are the key ingredients in {y} cooking?",
    "I'm invited to a family dinner in {x}. Is there any food etiquette I should know?",
    "What street food is {x} known for?", "How does {y} food change from region to region?",
    "How is a traditional {y} meal structured? Is there a set order of dishes?",
    "What do people in {x} eat for big celebrations?",
    "Is the {y} food you get abroad anything like what people actually eat in {x}?",
    "which {y} dishes should a beginner try first",
]
_WORLDFOOD_INGREDIENTS = [
    "gochujang", "sumac", "fish sauce", "miso", "tahini", "za'atar", "garam masala", "harissa", "tamarind",
    "berbere", "mirin", "galangal", "paneer", "halloumi", "dashi", "ghee", "kombu", "achiote",
    "preserved lemons", "pandan", "asafoetida", "Sichuan pepper", "teff", "yuzu", "epazote", "bonito flakes",
    "ras el hanout", "black garlic", "nori", "labneh",
]
_INGREDIENT_TEMPLATES = [
    "What is {x}, and which cuisines use it?", "{X}: what is it and what does it taste like?",
    "I keep seeing {x} on menus. What is it?", "Where does {x} come from, and what is it traditionally used in?",
]
_RESTAURANTS = [
    "a dim sum restaurant", "an Ethiopian restaurant", "a Korean barbecue place", "an izakaya",
    "a Lebanese restaurant", "a Peruvian restaurant", "a Georgian restaurant", "a South Indian restaurant",
    "a Sichuan restaurant", "a taqueria", "a tapas bar", "a ramen shop", "a Vietnamese pho place",
    "a Filipino restaurant", "a Turkish meze restaurant", "a sushi bar", "a Persian restaurant",
    "a Nigerian restaurant", "a Malaysian hawker centre", "a Bavarian beer hall",
]
_RESTAURANT_TEMPLATES = [
    "First time at {x}. What should I order?",
    "I'm taking friends who've never been to {x}. What should we order to share?",
    "How does ordering work at {x}? Is there any etiquette I should know?",
    "what do i order at {x} if i can't handle spicy food",
    "Going to {x} for a work dinner and I don't want to look clueless. What should I know?",
]


@_category("worldfood", "dishes and food cultures of the world: what a dish is, history, etiquette, what to order")
def _gen_worldfood(rng: random.Random) -> list[str]:
    dishes = _take(rng, _fill(_DISH_TEMPLATES, _WORLDFOOD_DISHES), 160)
    dishes += _take(rng, _fill(_DISH_PLACE_TEMPLATES, _WORLDFOOD_DISHES), 45)
    cultures = _take(rng, _fill(_CUISINE_TEMPLATES, _CUISINES), 70)
    ingredients = _take(rng, _fill(_INGREDIENT_TEMPLATES, _WORLDFOOD_INGREDIENTS), 45)
    restaurants = _take(rng, _fill(_RESTAURANT_TEMPLATES, _RESTAURANTS), 45)
    return dishes + cultures + ingredients + restaurants


_TECH = [
    "an API", "a database", "encryption", "end-to-end encryption", "the cloud", "DNS", "file compression",
    "an algorithm", "an AI language model", "open-source software", "a browser cookie", "a VPN", "an IP address",
    "a server", "bandwidth", "latency", "a GPU", "RAM", "caching", "two-factor authentication", "password hashing",
    "a blockchain", "machine learning", "a neural network", "a search engine index", "HTTPS", "a firewall",
    "a data centre", "an operating system", "a compiler", "version control", "binary code", "a router",
    "a QR code", "video streaming", "a content delivery network", "a recommendation algorithm",
    "a public and private key pair", "a checksum", "a spam filter", "a CAPTCHA", "software as a service",
    "a software container like Docker", "an SSD", "the Internet of Things", "5G", "a URL", "load balancing",
]
_TECH_TEMPLATES = [
    "Explain {x} like I'm 10.", "What is {x}, in plain English?", "Can you give me an everyday analogy for {x}?",
    "My grandmother asked me what {x} is. How can I explain it to her?",
    "I work in HR and {x} keeps coming up in meetings. What is it, roughly?", "explain {x} without any jargon",
    "What problem does {x} actually solve?",
    "What's {x}? Start really simple, then give me a slightly more technical version.",
    "Explain {x} using a restaurant or kitchen analogy.",
    "Give me a one-paragraph explanation of {x} for a non-technical manager.",
    "what is {x} and should i care about it",
    "Explain {x} at three levels: for a child, for a teenager and for an adult.",
    "I'm 68 and not techy at all. What is {x}?",
    "How would you explain {x} to a room of first-year business students?",
    "Quick question: what is {x}? Two or three sentences.",
    "What do people often get wrong about {x}?",
]
_TECH_QS = [
    "How can a website check my password without storing the password itself?",
    "Why does a zip file end up smaller than the files inside it?",
    "Why do people say 'the cloud is just someone else's computer'? Is that fair?",
    "How does an AI chatbot come up with its answers?",
    "If anyone can read open-source code, how can it be secure?",
    "How does Netflix start playing a film before the whole thing has downloaded?",
    "Why are JPEG photos smaller than PNG files, and what do you lose?",
    "How does a search engine find new web pages?",
    "Why is it so hard to delete something from the internet once it's posted?",
    "How do passwords end up leaked in data breaches?", "What's a 'token' when people talk about AI models?",
    "What does it mean that an AI model has billions of parameters?",
    "How does Shazam recognise a song from a few seconds of audio?",
    "How do map apps know there's a traffic jam ahead?",
    "How can my messages be encrypted if the app company runs the servers?",
    "Why are internet speeds measured in megabits but file sizes in megabytes?",
    "How does a computer store a photo as just ones and zeros?", "What is a zero-day vulnerability?",
    "What is phishing, and why does it work so well?", "How does ransomware lock up someone's files?",
    "Why do AI models sometimes make things up?", "What does it mean to 'train' an AI model?",
    "Why does a chatbot seem to forget things from earlier in a very long conversation?",
    "How do recommendation algorithms decide what to show me next?",
    "Why does every website ask me to accept cookies now?", "How does Wi-Fi send data through the air?",
    "What is Moore's law, and does it still hold?",
    "How can software be open source if a company still sells it?",
    "Is a cooking recipe an algorithm? What makes something an algorithm?",
    "How do computers come up with random numbers?",
    "What does 'the internet is a network of networks' mean?",
    "How does an email get from my outbox to someone else's inbox?",
    "Why do apps need updating so often?", "How do self-driving cars 'see' the road?",
    "What is quantum computing, and why won't it replace my laptop?",
    "What does 'serverless' mean if there are still servers?",
    "What is an API key, and why should I keep it secret?",
    "Why does the length of an encryption key matter?",
    "How does a QR code hold information in those little squares?",
    "What really happens to my data when I delete a file?",
    "How do undersea cables carry the internet between continents?",
    "Why did the world run out of IPv4 addresses, and what is IPv6?",
    "How does face unlock on a phone work?",
    "Is HTML a programming language? What's the difference between a programming language and a markup language?",
]
_TECH_PAIRS = [
    ("a database", "a spreadsheet"), ("the internet", "the World Wide Web"),
    ("HTTP", "HTTPS"), ("open-source software", "freeware"), ("a computer virus", "ransomware"),
    ("encryption", "hashing"), ("lossy compression", "lossless compression"), ("a website", "a web app"),
    ("upload speed", "download speed"), ("a VPN", "a proxy"), ("a cloud backup", "a backup on an external drive"),
    ("a CPU", "a GPU"), ("Wi-Fi", "mobile data"), ("a modem", "a router"), ("the frontend", "the backend"),
    ("AI", "machine learning"),
]
_TECH_PAIR_TEMPLATES = [
    "What's the difference between {x} and {y}, in plain terms?", "{x} vs {y}? explain like I'm not a tech person",
    "Can you use an analogy to explain how {x} differs from {y}?",
]
_TECH_SUFFIX = ["Use an analogy.", "Keep it under 100 words.", "No jargon, please.", "I'm a total beginner.",
                     "Bullet points are fine.", "Keep it short."]


@_category("techconcepts", "computing and internet concepts explained for non-experts, at different levels")
def _gen_techconcepts(rng: random.Random) -> list[str]:
    concepts = _take(rng, _fill(_TECH_TEMPLATES, _TECH), 210)
    pairs = _take(rng, _fill(_TECH_PAIR_TEMPLATES, _TECH_PAIRS), 40)
    return _decorate_finished(rng, concepts + _TECH_QS + pairs, _TECH_SUFFIX, 0.2)


# ---------------------------------------------------------------------------------------
# Weather, space, fitness, fashion, photography, games: weather (forecasts, storms, clouds, seasons, weather safety),
# space (planets, stars, galaxies, missions, stargazing, orbits at a lay level), fitness
# (strength, cardio, running, form, recovery, beginner plans), fashion (style, occasions,
# colours, fabric care, mending, capsule wardrobes, garment history), photography (exposure,
# composition, light, editing, genres, gear) and games (board, card and video games,
# puzzles, rules, strategy, design, history and recommendations for a group).
# ---------------------------------------------------------------------------------------

# --- weather ---------------------------------------------------------------------------

_WX_CONCEPTS = [
    "how a cold front differs from a warm front", "what dew point means", "what humidity actually measures",
    "why it feels colder when it's windy", "what wind chill is", "what the heat index is",
    "how high and low pressure affect the weather", "what the jet stream is", "how weather forecasts are made",
    "why forecasts get less reliable more than a few days ahead", "the difference between weather and climate",
    "what El Niño and La Niña are", "how hurricanes form", "how tornadoes form",
    "what causes thunder and lightning", "how hail forms", "why it sometimes rains while the sun is out",
    "the difference between sleet and freezing rain", "what the polar vortex is", "how a sea breeze works",
    "what an atmospheric river is", "what a heat dome is", "why one side of a mountain gets far more rain",
    "what a derecho is", "why fog forms in valleys overnight", "how a barometer works", "what the UV index means",
    "how weather radar works", "what weather balloons measure", "what lake-effect snow is",
    "what an occluded front is", "what the 'feels like' temperature on a weather app means",
    "how satellites help forecasters", "why it's colder at the top of a mountain", "what a microclimate is",
    "what a temperature inversion is", "why we have seasons", "why clear nights are colder than cloudy ones",
    "how a hurricane's category is decided", "what a 'weather bomb' is",
]
_WX_AUD = ["", ", in simple terms", ", for a 10-year-old", " in a few sentences", ", with an everyday example",
                ", as if I know nothing about science"]
_WX_QUESTIONS = [
    "will it snow if it's 2°C outside and raining", "can it be too cold to snow",
    "can it snow when the temperature is above freezing", "can it rain and snow at the same time",
    "can lightning strike the same place twice", "can you get thunder during a snowstorm",
    "does a red sky at night really mean good weather tomorrow", "do cows lying down mean rain is coming",
    "can aching joints really predict rain", "is it coldest just before dawn",
    "does a 'once in a hundred years' flood really only happen once a century",
    "is it ever safe to shelter under a tree in a thunderstorm", "does rain really smell different in the city",
    "can a hurricane cross the equator", "why doesn't it snow much in very cold places like Antarctica",
    "can it hail in the middle of summer", "does the full moon affect the weather",
    "why is the first frost usually on a clear night", "is a rainbow only possible with the sun behind you",
    "can the wind alone knock over a car", "why do big storms get names",
    "is it true that no two snowflakes are alike", "can you smell a thunderstorm coming",
    "why does the weather forecast change so much from one day to the next",
    "why does it rain more at the weekend, or is that just in my head",
    "does a halo around the moon mean rain is coming",
]
_WX_Q_TEMPLATES = ["{X}?", "{x}", "Settle an argument for me: {x}?", "{X}? Explain the science briefly.",
                        "My kid asked me this and I didn't know: {x}?"]
_WX_PLANS = [
    "a beach day", "a long bike ride", "an outdoor wedding", "a barbecue", "a hike in the hills",
    "a camping trip", "a picnic in the park", "a kids' football match", "a day out sailing",
    "a drive over a mountain pass", "an open-air concert", "a long run",
]
_WX_FORECASTS = [
    "a 40% chance of rain", "scattered thunderstorms in the afternoon", "gusts of up to 50 km/h",
    "a yellow warning for wind", "thick fog until mid-morning", "highs of 36°C", "light showers clearing by lunchtime",
    "a 60% chance of rain after 3pm", "a UV index of 9", "heavy rain overnight, then sunny spells",
]
_WX_PLAN_TEMPLATES = [
    "I've got {x} planned for Saturday and the forecast says {y}. Should I go ahead?",
    "Tomorrow's forecast: {y}. Is that OK for {x}?", "the app says {y} tomorrow. is {x} still a good idea",
    "We're planning {x} this weekend, but the forecast shows {y}. What should we prepare for?",
]
_WX_TERMS = [
    "scattered showers", "isolated thunderstorms", "partly cloudy", "a 30% chance of rain", "sunny spells",
    "a hard frost", "a wintry mix", "unsettled", "a tornado watch", "a storm surge warning", "blustery",
    "drizzle", "a red warning", "a heat advisory", "black ice",
]
_WX_TERM_TEMPLATES = [
    "What does '{x}' actually mean in a forecast?", "My weather app says '{x}'. What does that mean in practice?",
    "when the forecast says '{x}', what should i expect",
]
_WX_HAZARDS = [
    "a thunderstorm", "a heatwave", "a blizzard", "a flash flood", "a hailstorm", "an ice storm",
    "extreme cold", "a dust storm", "thick fog", "strong winds", "a tornado", "wildfire smoke",
]
_WX_HAZARD_TEMPLATES = [
    "How do I stay safe in {x}?", "what should i do if i get caught outside in {x}",
    "What are the biggest mistakes people make in {x}?", "Give me a short safety checklist for {x}.",
    "The forecast for my drive tomorrow mentions {x}. Any advice?",
]
_WX_HOME = [
    "a hurricane", "a winter storm", "a heatwave", "a long power cut during a storm", "flooding", "high winds",
    "a cold snap that could freeze the pipes",
]
_WX_HOME_TEMPLATES = [
    "How should I prepare my home for {x}?", "What should be in an emergency kit for {x}?",
    "we've just moved somewhere that gets {x}. how do we get ready",
]
_WX_CLOUDS = [
    "cumulus clouds", "cumulonimbus clouds", "cirrus clouds", "stratus clouds", "altocumulus clouds",
    "mammatus clouds", "lenticular clouds", "noctilucent clouds", "nimbostratus clouds", "shelf clouds",
    "wall clouds", "contrails",
]
_WX_CLOUD_TEMPLATES = [
    "What are {x}, and what weather do they usually bring?", "How do {x} form?",
    "I saw {x} this afternoon. Does that tell me anything about the weather?", "how do i recognise {x}",
]
_WX_TRIPS = [
    ("Lisbon", "March"), ("Tokyo", "June"), ("Reykjavik", "November"), ("Cape Town", "July"),
    ("Bangkok", "September"), ("Denver", "April"), ("Edinburgh", "August"), ("Mumbai", "July"),
    ("Vancouver", "January"), ("Buenos Aires", "December"), ("Crete", "October"), ("Toronto", "February"),
    ("Hanoi", "May"), ("Melbourne", "October"),
]
_WX_TRIP_TEMPLATES = [
    "What's the weather usually like in {x} in {y}?",
    "I'm going to {x} in {y}. What weather should I expect, and what should I pack?",
    "is {y} a rainy month in {x}",
]
_WX_ONEOFFS = [
    "Why do weather forecasts say 'chance of rain' instead of just telling me whether it will rain?",
    "I'm a keen gardener. How can I tell if there's going to be a frost tonight without checking an app?",
    "Is the weather getting more extreme, or do we just hear about it more now?",
    "How accurate are 14-day forecasts, honestly?",
    "why is it always windier at the coast",
    "Can you explain what a weather map with all those curved lines and triangles is showing?",
    "I'm flying tomorrow and there's a big storm forecast. Will the flight be cancelled, and how do airlines "
    "decide?",
    "What's the hottest temperature ever recorded on Earth, and where was it?",
    "Why does snow make everything so quiet?",
    "Write a short, friendly weather forecast for a fictional town where it's raining frogs.",
    "My dog is terrified of thunder. Why can animals sense storms coming before we can?",
    "What's the difference between climate change and the weather we have this week? My uncle says a cold "
    "winter proves global warming is fake.",
    "How do I read a barometer on my wall? It just says 'change' and 'fair'.",
    "What do the colours on a rain radar mean?",
    "Is it safe to go swimming in the sea when there's lightning a few miles away?",
    "We get really humid summers. Why does humid heat feel so much worse than dry heat?",
    "how do meteorologists decide when to issue a weather warning",
    "Why are the winters in Moscow so much colder than in London?",
    "Write a haiku about the first snow of winter.",
    "What's the best way to keep cool in a heatwave without air conditioning?",
    "Why do some places have a rainy season and a dry season instead of four seasons?",
    "I'm planning a wedding in Scotland in June. What are the odds of decent weather, realistically?",
    "How do I explain to my 6-year-old where rain comes from?",
    "Why does the temperature drop so fast in the desert at night?",
    "what's the difference between mist and fog",
    "I want to start a little weather station in my garden. What instruments do I need, and what should I "
    "record each day?",
    "Is there any truth to the old rhyme 'Rain before seven, fine by eleven'?",
    "Why is it called 'Indian summer' when warm weather comes back in autumn?",
    "How do storm chasers know where a tornado will form?",
    "Why do hurricanes have an eye, and why is it calm there?",
    "Can you explain what a 'heat dome' over a region means for the people living there?",
]
_WX_SUFFIX = ["Keep it short.", "Explain it simply.", "Answer in a few sentences.",
                   "A quick rule of thumb is fine.", "No jargon, please."]


@_category("weather", "weather: forecasts and how to read them, storms and weather safety, clouds, seasons, climate "
                      "versus weather, and everyday weather questions")
def _gen_weather(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "Can you explain {x}{y}?"), _WX_CONCEPTS, _WX_AUD)
    concepts += _fill(["I've always wondered {x}. Could you explain?", "quick one, can you explain {x}?"],
                      [c for c in _WX_CONCEPTS if c.startswith(("why", "how"))])
    questions = _fill(_WX_Q_TEMPLATES, _WX_QUESTIONS)
    plans = _fill_cross(_WX_PLAN_TEMPLATES, _WX_PLANS, _WX_FORECASTS)
    terms = _fill(_WX_TERM_TEMPLATES, _WX_TERMS)
    safety = _fill(_WX_HAZARD_TEMPLATES, _WX_HAZARDS)
    home = _fill(_WX_HOME_TEMPLATES, _WX_HOME)
    clouds = _fill(_WX_CLOUD_TEMPLATES, _WX_CLOUDS)
    trips = _fill(_WX_TRIP_TEMPLATES, _WX_TRIPS)
    out = (_take(rng, concepts, 95) + _take(rng, questions, 50) + _take(rng, plans, 40) + _take(rng, terms, 25)
           + _take(rng, safety, 35) + _take(rng, home, 14) + _take(rng, clouds, 25) + _take(rng, trips, 25)
           + _WX_ONEOFFS)
    return _decorate_finished(rng, out, _WX_SUFFIX, 0.12)


# --- space -----------------------------------------------------------------------------

_WORLDS = [
    "Mars", "Venus", "Mercury", "Jupiter", "Saturn", "Uranus", "Neptune", "Pluto", "the Moon", "Europa",
    "Titan", "Enceladus", "Io", "Ganymede", "Ceres", "Triton", "Callisto", "Phobos",
]
_WORLD_TEMPLATES = [
    "Could there be life on {x}?", "What would it be like to visit {x}?",
    "What's the weather like on {x}?", "Which missions have visited {x}, and what did they find?",
    "Give me five surprising facts about {x}.", "tell me about {x}",
    "Why are scientists so interested in {x}?", "How long would it take to travel to {x}?",
]
_DEEP = [
    "Betelgeuse", "Proxima Centauri", "Sirius", "the Andromeda Galaxy", "the Orion Nebula", "the Crab Nebula",
    "Sagittarius A*", "the Pleiades", "Polaris", "the Large Magellanic Cloud", "Alpha Centauri",
    "the TRAPPIST-1 system", "Vega", "the Pillars of Creation",
]
_DEEP_TEMPLATES = [
    "How far away is {x}, and how do we know?", "What kind of object is {x}?",
    "What makes {x} interesting to astronomers?", "what's the deal with {x}",
    "I'm just getting into astronomy. What should I know about {x}?",
]
_SPACE_CONCEPTS = [
    "how orbits work", "why astronauts float on the ISS", "what a light-year is", "how black holes form",
    "what dark matter is", "what dark energy is", "why the Moon always shows us the same face",
    "how stars are born", "what happens when a star dies", "what a supernova is", "what a neutron star is",
    "how we know the universe is expanding", "the Big Bang theory", "how astronomers find exoplanets",
    "what redshift means", "why planets are round", "what causes a solar eclipse",
    "why Pluto isn't counted as a planet any more", "how rockets work in the vacuum of space",
    "what escape velocity is", "why there's no sound in space", "how a gravity assist works",
    "what a Lagrange point is", "what the cosmic microwave background is", "what causes meteor showers",
    "why Venus is hotter than Mercury", "what a pulsar is", "how the Moon formed", "what a geostationary orbit is",
    "why the ISS doesn't fall down", "what the habitable zone is", "how astronomers measure the distance to stars",
    "the difference between a meteor, a meteorite and an asteroid", "why stars twinkle but planets don't",
    "what a galaxy actually is", "why Saturn has rings", "how time runs differently near a black hole",
    "what a red giant is", "how the Sun makes its energy", "what a comet is made of",
]
_SPACE_AUD = ["", ", in simple terms", ", for a 12-year-old", " in one paragraph", ", using an analogy",
                   ", without any maths"]
_MISSIONS = [
    "the Voyager probes", "the James Webb Space Telescope", "the Hubble Space Telescope", "the Perseverance rover",
    "the International Space Station", "the Cassini mission", "New Horizons", "the Rosetta mission",
    "the Artemis programme", "Chandrayaan-3", "Sputnik 1", "the Kepler space telescope",
    "the Parker Solar Probe", "the Juno mission", "the Ingenuity helicopter on Mars", "the DART mission",
    "Hayabusa2", "Apollo 13", "Vostok 1", "the Curiosity rover",
]
_MISSION_TEMPLATES = [
    "What did {x} achieve?", "Why was {x} such a big deal?", "What's the story of {x}, briefly?",
    "Explain what {x} was designed to do and what it found.", "what's the coolest thing about {x}",
]
_SKY_TARGETS = [
    "the Andromeda Galaxy", "Saturn's rings", "the Orion Nebula", "the ISS passing overhead",
    "the Perseid meteor shower",
    "Jupiter's moons", "the northern lights", "the Milky Way", "Venus in the evening sky", "craters on the Moon",
    "Mercury", "a comet", "the Pleiades", "Mars at opposition",
]
_SKY_TEMPLATES = [
    "How can I see {x} from my back garden?", "What do I need to see {x}? Will binoculars do?",
    "when's the best time to look for {x}",
    "I live in a city with a lot of light pollution. Have I got any chance of seeing {x}?",
    "Can I see {x} with the naked eye, or do I need equipment?",
]
_SPACE_ONEOFFS = [
    "I want to buy my first telescope for under £300. What should I look for, and what should I avoid?",
    "Are binoculars better than a cheap telescope for a beginner stargazer?",
    "What's the difference between a refractor and a reflector telescope?",
    "How do I let my eyes adjust to the dark properly when stargazing?",
    "Which phone apps are good for identifying stars and planets?",
    "If the Sun suddenly disappeared, how long would it take us to notice?",
    "Why is it so hard to land on Mars compared with the Moon?",
    "How do astronauts sleep, eat and go to the toilet on the ISS?",
    "How long would it take to fly to the nearest star at the speed of our fastest spacecraft?",
    "Write a short poem from the point of view of the Voyager 1 probe.",
    "My 8-year-old wants to be an astronaut. What does it actually take?",
    "Why do we still not know what dark matter is after all these years?",
    "is the moon actually moving away from earth",
    "How did ancient people use the stars to navigate?",
    "What's the biggest star we know of, and how big is it compared with the Sun?",
    "Are we alone in the universe? What's the current scientific thinking?",
    "What is the Fermi paradox, and what are the most popular answers to it?",
    "Why can't we see stars in photos taken from the Moon?",
    "What happens to the human body on a long trip to Mars?",
    "Plan me a night of stargazing for a family with young kids, with things to look for in the first hour.",
    "Why is Jupiter sometimes called the solar system's vacuum cleaner?",
    "How do we know what distant planets are made of when we've never been there?",
    "what would happen if you fell into a black hole",
    "How do satellites stay in orbit without falling back to Earth?",
    "I keep seeing a bright 'star' near the Moon in the evening. How can I tell if it's a planet?",
    "What's the difference between an astronomer and an astrophysicist?",
    "Why did it take so long to send people back to the Moon after Apollo?",
    "How many satellites are orbiting Earth right now, and is space junk a real problem?",
    "What's a blue moon, and is the Moon ever actually blue?",
    "Could we ever terraform Mars? What would it take?",
    "Explain the scale of the solar system using things I'd find in a football stadium.",
    "What's the best way to photograph a meteor shower with just a phone?",
]
_SPACE_SUFFIX = ["Keep it short.", "Explain it like I'm curious but not a scientist.",
                      "A couple of paragraphs is plenty.", "Please include one mind-blowing fact.",
                      "No equations, please."]


@_category("space", "space and astronomy: planets, moons, stars, galaxies, missions, telescopes, stargazing and "
                    "orbits at a lay level")
def _gen_space(rng: random.Random) -> list[str]:
    worlds = _fill(_WORLD_TEMPLATES, _WORLDS)
    deep = _fill(_DEEP_TEMPLATES, _DEEP)
    concepts = _fill_cross(("Explain {x}{y}.", "Can you help me understand {x}{y}?"), _SPACE_CONCEPTS,
                              _SPACE_AUD)
    concepts += _fill(["I've never really understood {x}. Could you explain?",
                       "my teenager asked me about {x} and i had no idea. help?"], _SPACE_CONCEPTS)
    missions = _fill(_MISSION_TEMPLATES, _MISSIONS)
    sky = _fill(_SKY_TEMPLATES, _SKY_TARGETS)
    out = (_take(rng, worlds, 70) + _take(rng, deep, 35) + _take(rng, concepts, 100) + _take(rng, missions, 45)
           + _take(rng, sky, 40) + _SPACE_ONEOFFS)
    return _decorate_finished(rng, out, _SPACE_SUFFIX, 0.12)


# --- fitness ---------------------------------------------------------------------------

_EXERCISES = [
    "squats", "deadlifts", "push-ups", "lunges", "the bench press", "pull-ups", "planks", "kettlebell swings",
    "the overhead press", "bent-over rows", "burpees", "hip thrusts", "Romanian deadlifts", "dips",
    "goblet squats", "glute bridges", "farmer's carries", "Bulgarian split squats",
]
_EXERCISE_TEMPLATES = [
    "How do I do {x} with good form?", "What are the most common mistakes people make with {x}?",
    "Which muscles are worked by {x}?", "Give me three simple form cues for {x}.",
    "What's an easier version of {x} for a beginner?", "how many sets and reps of {x} should a beginner do",
    "My lower back aches after doing {x}. Is my technique off?",
]
_FIT_SITUATIONS = [
    "I'm 40 and haven't exercised properly in ten years", "I'm 65 and want to get stronger so I can keep up "
    "with my grandkids", "I work from home and sit for nine hours a day", "I want to run my first 5K in eight weeks",
    "I'm training for a half marathon in the spring", "I've just joined a gym and I feel totally lost",
    "I can't do a single push-up yet", "I want to be able to do a pull-up by the summer",
    "I work night shifts and can never find time to exercise", "All I have at home is a pair of dumbbells",
    "I want to get fit, but I get bored of every routine after two weeks",
    "I had a baby six months ago and my doctor says I can start exercising again",
    "I feel self-conscious at the gym because I'm overweight", "I travel for work all the time and live in hotels",
    "I'm 16 and want to start lifting weights",
    "I do lots of cardio but I've never done any strength training", "I walk the dog every day but that's about it",
    "I want to improve my flexibility so I can touch my toes",
    "I used to play football at university and want that fitness back",
]
_FIT_SIT_TEMPLATES = [
    "{X}. Where do I start?", "{X}. Can you sketch out a simple weekly plan for me?",
    "{X}. What's a realistic goal for the next month?", "{x}. any tips?",
    "{X}. What should I focus on first?",
]
_FIT_TERMS = [
    "progressive overload", "HIIT", "zone 2 cardio", "VO2 max training", "RPE", "a superset", "periodisation",
    "a deload week", "a tempo run", "time under tension", "active recovery", "mobility work",
    "a push/pull/legs split", "a full-body workout", "foam rolling", "a drop set", "an AMRAP workout",
    "an EMOM workout", "a fartlek run", "plyometrics", "isometric exercise", "a one-rep max",
    "a negative split", "Tabata training",
]
_FIT_TERM_TEMPLATES = [
    "What is {x}?", "What's {x}, and how would I use it in my training?",
    "can someone explain {x} like i'm new to the gym", "Is {x} useful for beginners, or is it more for advanced "
    "people?", "My personal trainer keeps mentioning {x}. What does that mean?",
]
_FIT_PAIRS = [
    ("free weights", "machines"), ("running", "cycling"), ("HIIT", "steady-state cardio"),
    ("stretching before a workout", "stretching after it"), ("yoga", "Pilates"),
    ("training in the morning", "training in the evening"), ("light weights for high reps", "heavy weights for "
    "low reps"), ("running on a treadmill", "running outside"), ("a rowing machine", "an exercise bike"),
    ("working out at home", "joining a gym"), ("walking 10,000 steps", "a 30-minute run"), ("swimming", "running"),
    ("kettlebells", "dumbbells"), ("a personal trainer", "a fitness app"),
]
_FIT_PAIR_TEMPLATES = [
    "{X} or {y}: which is better for a beginner?", "What are the pros and cons of {x} versus {y}?",
    "is {x} better than {y}", "Quick verdict: {x} or {y}?",
]
_WORKOUTS = [
    "20-minute bodyweight", "30-minute dumbbell", "hotel-room", "beginner full-body", "lower-body", "upper-body",
    "core", "low-impact cardio", "10-minute morning mobility", "kettlebell", "resistance-band", "quiet, "
    "no-jumping apartment", "park",
]
_WORKOUT_TEMPLATES = [
    "Plan a {x} workout for me, with sets and rest times.", "Can you put together a {x} routine for me?", "give me a {x} session i can do today",
]
_FIT_ONEOFFS = [
    "How long does it actually take to see results from strength training?",
    "What is DOMS, and why is the soreness worse two days after a workout?",
    "Is the 'afterburn effect' from HIIT real, and does it make much difference?",
    "My lifts haven't gone up in months. How do I get past a plateau?",
    "Is it bad to work out when I'm still sore from the last session?",
    "How many rest days a week do I really need?",
    "Why do I get a stitch when I run, and how do I stop it?",
    "I'm new to running and my shins hurt after every run. What am I doing wrong?",
    "What should I eat before a morning workout if I'm not hungry?",
    "how do i stay motivated to exercise when it's dark and cold outside",
    "Is it better to do cardio before or after weights?",
    "Can you explain how muscles actually get bigger and stronger?",
    "What's a good warm-up before a run? I usually just start running.",
    "How do I pick the right running shoes without spending a fortune?",
    "I've been lifting for a year. Should I switch from full-body sessions to a split routine?",
    "Write a short pep talk for someone about to attempt their first parkrun.",
    "How important is sleep for recovery, really?",
    "Is it possible to build muscle after 60?",
    "What's a good way to track progress at the gym besides the scale?",
    "I can run 5K but I'm really slow. How do I get faster?",
    "What's the point of a cool-down, and what should it include?",
    "Are stretching routines actually worth it, or is that a myth?",
    "How do I breathe properly when lifting heavy?",
    "What should a sensible gym session look like if I only have 45 minutes?",
    "I always skip leg day. Convince me not to, and tell me the three exercises that matter most.",
    "How do I get back into exercise after three months off with a bad cold and a busy job?",
    "What's the difference between being fit and being strong?",
    "i want to do a pull-up. i can't even hang from the bar for long. what's the plan",
    "How can I exercise at my desk without looking ridiculous?",
    "Is walking enough exercise on its own?",
    "How do I build an exercise habit that sticks this time?",
    "What are some fun alternatives to the gym for someone who hates running?",
    "My partner and I want to train together but we're at very different levels. How can we make that work?",
    "What's the best way to prepare for a long hike if I normally just walk around town?",
    "Write a simple eight-week plan to get from the sofa to running 30 minutes without stopping.",
    "How should I warm up before lifting weights?",
]
_FIT_SUFFIX = ["Keep it short.", "Bullet points, please.", "I'm a complete beginner, so keep it simple.",
                    "Give me something I can start this week.", "Explain the why as well as the how."]


@_category("fitness", "fitness: strength and cardio routines, running, stretching, form cues, beginner plans, "
                      "recovery and motivation (general information, not medical advice)")
def _gen_fitness(rng: random.Random) -> list[str]:
    exercises = _fill(_EXERCISE_TEMPLATES, _EXERCISES)
    situations = _fill(_FIT_SIT_TEMPLATES, _FIT_SITUATIONS)
    terms = _fill(_FIT_TERM_TEMPLATES, _FIT_TERMS)
    pairs = _fill(_FIT_PAIR_TEMPLATES, _FIT_PAIRS)
    workouts = _fill(_WORKOUT_TEMPLATES, _WORKOUTS)
    out = (_take(rng, exercises, 75) + _take(rng, situations, 80) + _take(rng, terms, 60) + _take(rng, pairs, 40)
           + _take(rng, workouts, 32) + _FIT_ONEOFFS)
    return _decorate_finished(rng, out, _FIT_SUFFIX, 0.12)


# --- fashion ---------------------------------------------------------------------------

_FASHION_OCCASIONS = [
    "a summer wedding", "a job interview at a tech startup", "a job interview at a law firm", "a black-tie gala",
    "a first date at a cocktail bar", "a funeral", "a garden party", "a christening", "a music festival",
    "a winter wedding", "a smart-casual dinner", "my graduation ceremony", "a beach wedding", "a cocktail party",
    "my first day at a new office job", "dinner with my partner's parents", "a conference where I'm speaking",
    "a rooftop party in the evening", "the theatre", "a work Christmas party",
]
_OCCASION_TEMPLATES = [
    "What should I wear to {x}?", "What's appropriate to wear to {x}? I don't want to overdo it.",
    "i have nothing to wear for {x}. ideas?", "I'm a man in my 30s going to {x}. What should I wear?",
    "I need an outfit for {x} but money's tight. Any ideas?", "What should I avoid wearing to {x}?",
    "I'm in my 50s and going to {x}. What would look smart without trying too hard?",
]
_COLOURS = [
    "navy", "olive green", "burgundy", "mustard yellow", "camel", "grey", "rust orange", "emerald green",
    "blush pink", "charcoal", "cream", "cobalt blue", "chocolate brown", "lavender",
]
_COLOUR_TEMPLATES = [
    "What colours go well with {x}?", "How do I wear {x} without looking washed out?",
    "I just bought some {x} trousers. What tops should I pair them with?", "does {x} go with black",
]
_GARMENTS = [
    "the little black dress", "blue jeans", "the trench coat", "the necktie", "the kimono", "the sari",
    "high heels", "the bikini", "the hoodie", "trainers", "the tuxedo", "the cardigan", "the Breton striped top",
    "the kilt", "the polo shirt", "the bowler hat", "the miniskirt", "the tracksuit", "the hanbok",
    "the white T-shirt",
]
_GARMENT_TEMPLATES = [
    "What's the history of {x}?", "Where did {x} come from?", "How did {x} become so popular?",
    "tell me the story behind {x}",
]
_CARE_ITEMS = [
    "a wool jumper", "a silk blouse", "raw denim jeans", "a down jacket", "linen trousers", "a cashmere scarf",
    "a leather jacket", "suede shoes", "white trainers", "a wool coat", "a polyester suit", "a sequinned dress",
    "a waterproof rain jacket", "a vintage dress with no care label",
]
_CARE_TEMPLATES = [
    "How should I wash {x}?", "What's the best way to store {x}?", "how do i clean {x} without wrecking the fabric",
    "Can {x} go in the washing machine, or does it need special treatment?",
]
_STAINS = [
    "red wine", "grass stains", "sweat stains", "deodorant marks", "ink", "coffee", "blood", "tomato sauce",
    "foundation", "bike grease", "chocolate", "mud",
]
_STAIN_FABRICS = ["a white cotton shirt", "my jeans", "a wool jumper", "a silk blouse", "a polyester dress"]
_STAIN_TEMPLATES = [
    "How do I get {x} out of {y}?", "got {x} on {y}. how do i get it out",
    "What's the safest way to remove {x} from {y}?",
]
_MENDS = [
    "sew on a button", "fix a hole in a jumper", "hem trousers without a sewing machine", "repair a split seam",
    "fix a zip that keeps coming apart", "darn a sock", "take in a shirt that's too baggy",
    "fix a snag in a knitted jumper", "patch the knees of my jeans", "thread a drawstring back into a hoodie",
    "stop my jeans fraying at the hem", "shorten the straps on a dress",
]
_MEND_TEMPLATES = [
    "How do I {x}?", "Can you give me step-by-step instructions to {x}?",
    "is it hard to {x} if i've never sewn before", "What do I need to {x}, and how long will it take?",
]
_CAPSULES = [
    "a cold, rainy climate", "a two-week trip to Italy in summer", "working in an office three days a week",
    "a student on a tight budget", "a new dad who needs everything to be machine-washable",
    "a hot, humid climate", "autumn in the city", "someone who hates shopping",
    "working from home but looking presentable on video calls",
]
_CAPSULE_TEMPLATES = [
    "Help me build a capsule wardrobe for {x}.", "What would a capsule wardrobe look like for {x}?",
    "list the essential pieces for a capsule wardrobe for {x}",
]
_FITS = [
    "a suit jacket", "a pair of jeans", "a dress shirt", "a blazer", "a pair of chinos", "a winter coat",
    "a pair of running shoes", "a T-shirt", "a pencil skirt", "a bra",
]
_FIT_TEMPLATES = [
    "How should {x} fit?", "how do i know if {x} fits properly", "What are the signs that {x} doesn't fit me well?",
]
_FASHION_ONEOFFS = [
    "I'm 5'3\" and most trousers swamp me. How can I dress to look less drowned in fabric?",
    "What's the difference between business casual and smart casual? Every invite seems to mean something "
    "different.",
    "Can I wear brown shoes with a navy suit?", "Do my belt and shoes really have to match?",
    "I want to dress more sustainably without spending a fortune. Where should I start?",
    "How do I find my personal style? I'm 35 and still dress like I did at university.",
    "Is it OK to wear white to a wedding if it's just a white shirt?",
    "What's the difference between a suit and a tuxedo?", "how many colours is too many in one outfit",
    "What should I look for to tell if a piece of clothing is well made?",
    "My partner says my jeans are 'dad jeans'. What's actually in style for jeans right now, and does it matter?",
    "How do I dress for a cold winter without looking like a marshmallow?",
    "Explain the difference between cotton, linen, wool and polyester for summer clothes.",
    "Why do my jumpers go bobbly, and can I stop it?", "what does 'dress code: festive' mean",
    "I've lost a lot of weight and none of my clothes fit. How do I rebuild a wardrobe without buying "
    "everything at once?",
    "Write a short, funny product description for a pair of very ugly Christmas socks.",
    "How do I tie a tie? A simple knot, please.", "What's the best way to pack clothes so they don't crease?",
    "Can I iron a shirt without an iron? I'm in a hotel with nothing.",
    "Which colours suit someone with warm undertones? How do I even tell what my undertones are?",
    "I'm going to a wedding in India and I've never been to one. What should I wear as a guest?",
    "Is fast fashion really that bad? Give me the main arguments.",
    "How should a man's suit trousers break over the shoe?", "how do i make cheap clothes look more expensive",
    "Why did shoulder pads get so big in the 1980s?",
    "What's the etiquette for wearing a hat indoors these days?",
    "I have a job interview in a week and my only suit is from ten years ago. Is it worth getting it tailored?",
    "How do I wash and look after a wool coat so it lasts for years?",
    "What's the difference between Fair Isle and Nordic knitting patterns?",
    "Describe three complete outfits I could make from jeans, a white shirt, a navy blazer and trainers.",
    "What is 'quiet luxury' in fashion, and why is everyone talking about it?",
]
_FASHION_SUFFIX = ["Keep it short.", "Bullet points, please.", "I'm on a budget, so keep that in mind.",
                        "Give me a couple of concrete options.", "Please be honest, not just polite."]
_PLAIN_SUFFIX = ["Keep it short.", "Bullet points, please.", "A quick answer is fine."]


@_category("fashion", "fashion and clothing: style advice, what to wear when, colours and fit, fabric care and "
                      "stains, mending, capsule wardrobes and the history of garments")
def _gen_fashion(rng: random.Random) -> list[str]:
    occasions = _fill(_OCCASION_TEMPLATES, _FASHION_OCCASIONS)
    colours = _fill(_COLOUR_TEMPLATES, _COLOURS)
    garments = _fill(_GARMENT_TEMPLATES, _GARMENTS)
    care = _fill(_CARE_TEMPLATES, _CARE_ITEMS)
    stains = _fill_cross(_STAIN_TEMPLATES, _STAINS, _STAIN_FABRICS)
    mends = _fill(_MEND_TEMPLATES, _MENDS)
    capsules = _fill(_CAPSULE_TEMPLATES, _CAPSULES)
    fits = _fill(_FIT_TEMPLATES, _FITS)
    style = _take(rng, occasions, 85) + _take(rng, colours, 35) + _take(rng, capsules, 18) + _take(rng, fits, 22)
    practical = (_take(rng, garments, 40) + _take(rng, care, 35) + _take(rng, stains, 30) + _take(rng, mends, 30)
                 + _FASHION_ONEOFFS)
    return (_decorate_finished(rng, style, _FASHION_SUFFIX, 0.15)
            + _decorate_finished(rng, practical, _PLAIN_SUFFIX, 0.1))


# --- photography -----------------------------------------------------------------------

_PHOTO_CONCEPTS = [
    "aperture", "shutter speed", "ISO", "the exposure triangle", "depth of field", "white balance", "focal length",
    "the rule of thirds", "leading lines", "golden hour", "blue hour", "RAW versus JPEG", "dynamic range", "bokeh",
    "metering modes", "exposure compensation", "how to read a histogram", "crop sensors versus full-frame",
    "image stabilisation", "HDR photography", "long-exposure photography", "back-button focus",
    "hyperfocal distance", "negative space", "colour grading", "prime lenses versus zoom lenses", "fill flash",
    "why soft, diffused light is flattering", "framing a subject within a scene", "f-stops",
]
_PHOTO_AUD = ["", ", in simple terms", " for someone who only shoots on a phone", ", with a practical example",
                   " in a few sentences", ", as if I've just bought my first camera"]
_PHOTO_PROBLEMS = [
    "my photos come out blurry indoors", "my night shots are full of grainy noise",
    "the sky is always completely white in my landscape shots",
    "people's faces come out dark when they stand in front of a window",
    "my photos of the moon are just a white blob", "everything looks orange under indoor lights",
    "my kids are always blurry because they won't stay still",
    "my sunset photos never look as good as the real thing", "my food photos look flat and unappetising",
    "the horizon in my photos is always wonky", "my firework photos are just smudges",
    "my concert photos are always blurry and dark", "my photos look fine on my phone but dull on my laptop",
    "my portraits have harsh shadows under people's eyes", "my snow photos come out grey instead of white",
]
_PHOTO_PROBLEM_TEMPLATES = [
    "{X}. What am I doing wrong?", "{X}. How do I fix it?", "help, {x}",
    "I mostly shoot on my phone and {x}. Any tips?", "{X}. What settings should I try?",
]
_PHOTOGRAPHY_GENRES = [
    "portrait", "landscape", "street", "wildlife", "macro", "night-sky", "food", "product", "sports",
    "wedding", "architecture", "cityscape", "black-and-white", "travel", "pet", "underwater",
]
_GENRE_TEMPLATES = [
    "I want to get into {x} photography. Where should I start?", "What gear do I really need for {x} photography?",
    "What are the most common beginner mistakes in {x} photography?", "give me 5 tips for better {x} photos",
    "What makes a great {x} photo?", "Suggest a week of practice exercises to get better at {x} photography.",
]
_GEAR_PAIRS = [
    ("a phone", "an entry-level DSLR"), ("a mirrorless camera", "a DSLR"), ("a 50mm prime", "the kit zoom lens"),
    ("Lightroom", "Snapseed"), ("a tripod", "a gimbal"), ("shooting RAW", "shooting JPEG"),
    ("full-frame", "APS-C"), ("a new camera body", "a better lens"), ("a flash", "a continuous LED light"),
    ("manual mode", "aperture priority"), ("a used camera", "a new one"), ("autofocus", "manual focus"),
]
_GEAR_TEMPLATES = [
    "{X} or {y}: which should I go for?", "What's the real difference between {x} and {y} for a hobbyist?",
    "should i get {x} or {y}",
]
_EDITS = [
    "fix a photo that's too dark", "make skin tones look natural", "straighten a crooked horizon",
    "remove a distracting object from the background", "make a sky look more dramatic without it looking fake",
    "give my Instagram photos a consistent look", "convert a photo to black and white well",
    "sharpen a slightly soft photo", "fix a colour cast", "restore an old scanned family photo",
    "edit a batch of 300 holiday photos quickly",
]
_EDIT_TEMPLATES = [
    "How do I {x} in Lightroom?", "What's the easiest way to {x} on my phone?", "how do i {x}",
    "Walk me through how to {x}, step by step.",
]
_PHOTO_WALKS = [
    "a rainy day", "my own neighbourhood", "a beach at low tide", "a busy train station", "a single 50mm lens",
    "a kids' birthday party", "a foggy morning", "an ordinary kitchen",
]
_PHOTO_WALK_TEMPLATES = ["Give me ten photo ideas for {x}.", "Set me a photo challenge based on {x}."]
_PHOTO_ONEOFFS = [
    "Is it worth buying a proper camera when phone cameras are this good?",
    "What's the best first camera for someone who wants to learn manual settings, on a budget of about $600?",
    "Why do professional photos have that blurry background, and can I do it on my phone?",
    "How do I take a good photo of a group of 20 people where everyone is in focus?",
    "What's the best way to back up thousands of photos so I never lose them?",
    "how do i stop my hands shaking when i take photos",
    "Can you explain the difference between optical zoom and digital zoom?",
    "What is a 'crop factor', and why does it matter when I buy a lens?",
    "I'm photographing my friend's small wedding for free. What do I absolutely need to get right?",
    "How do I photograph the northern lights if I ever get the chance?",
    "Write a short, friendly caption for a photo of my dog looking disappointed in the rain.",
    "What makes street photography ethical? Do I need permission to photograph strangers?",
    "What's the deal with film photography coming back? Is it worth trying?",
    "How do I clean my camera sensor safely, or should I leave that to a shop?",
    "How do I take a decent headshot for LinkedIn with just my phone?",
    "What does 'shooting wide open' mean?", "Who was Ansel Adams, and why is he so famous?",
    "Describe how you would light a simple portrait with one window and a white sheet.",
    "What's the best way to photograph a painting or artwork for an online shop?",
    "Why are my photos printing much darker than they look on screen?",
    "how many megapixels do i actually need",
    "I take hundreds of photos on holiday and never look at them again. How do I shoot less but better?",
    "What are some famous photographs everyone should know, and why do they matter?",
    "How do I take sharp photos of birds in flight?",
    "Can you critique my plan: I want to shoot a sunrise at the beach with a phone, a small tripod and no "
    "filters. What should I expect?",
    "What's the difference between a photo that's technically good and one that's actually interesting?",
    "How do I take better photos of my kids without them posing stiffly?",
    "Explain the difference between exposure and brightness in editing apps.",
    "I want to start selling my photos as prints. What do I need to know about file size and printing?",
]
_PHOTO_SUFFIX = ["Keep it short.", "I'm a beginner, so avoid jargon.", "Bullet points are fine."]
_PHOTO_FIX_SUFFIX = ["Please suggest actual settings as a starting point.", "I'm a beginner, so avoid jargon.",
                          "My camera is a basic entry-level one, if that matters."]


@_category("photography", "photography: cameras and phones, exposure, composition, light, editing, genres such as "
                          "portrait, landscape and street, and gear choices")
def _gen_photography(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "Can you help me understand {x}{y}?"), _PHOTO_CONCEPTS,
                              _PHOTO_AUD)
    concepts += _fill(["What difference does {x} actually make to a photo?", "ok so what's {x}, in plain english"],
                      ["aperture", "shutter speed", "ISO", "white balance", "depth of field", "focal length",
                       "exposure compensation", "image stabilisation"])
    problems = _fill(_PHOTO_PROBLEM_TEMPLATES, _PHOTO_PROBLEMS)
    genres = _fill(_GENRE_TEMPLATES, _PHOTOGRAPHY_GENRES)
    gear = _fill(_GEAR_TEMPLATES, _GEAR_PAIRS)
    edits = _fill(_EDIT_TEMPLATES, _EDITS)
    walks = _fill(_PHOTO_WALK_TEMPLATES, _PHOTO_WALKS)
    fixes = [s if "phone" in s else _decorate_finished(rng, [s], _PHOTO_FIX_SUFFIX, 0.2)[0]
             for s in _take(rng, problems, 55)]
    out = (_take(rng, concepts, 100) + _take(rng, genres, 62) + _take(rng, gear, 30) + _take(rng, edits, 34)
           + _take(rng, walks, 14) + _PHOTO_ONEOFFS)
    return fixes + _decorate_finished(rng, out, _PHOTO_SUFFIX, 0.12)


# --- games -----------------------------------------------------------------------------

_TABLE_GAMES = [
    "Catan", "Ticket to Ride", "Carcassonne", "Pandemic", "Codenames", "Monopoly", "Scrabble", "Go",
    "backgammon", "Risk", "Azul", "Wingspan", "Dixit", "Cluedo", "7 Wonders", "Terraforming Mars", "Splendor",
    "mahjong", "Dominion", "poker", "bridge", "rummy", "cribbage", "Uno", "hearts", "spades", "Exploding Kittens",
    "Magic: The Gathering", "euchre", "canasta", "whist", "dominoes", "Mancala", "Scattergories",
]
_GAMES_TABLE_TEMPLATES = [
    "Can you explain the rules of {x} simply?", "What are some good strategy tips for {x}?",
    "How do I teach {x} to people who've never played?", "What do beginners usually get wrong in {x}?",
    "what's the quickest way to learn {x}", "I keep losing at {x}. What should I do differently?",
    "How long does a game of {x} usually take, and how many people can play?",
    "Is {x} a good game for a family with kids around 10?",
]
_VIDEO_GAMES = [
    "Minecraft", "Stardew Valley", "Tetris", "The Legend of Zelda: Breath of the Wild", "Elden Ring",
    "Among Us", "Portal 2", "Civilization VI", "Hades", "Celeste", "Animal Crossing: New Horizons", "Mario Kart 8",
    "Rocket League", "Slay the Spire", "Age of Empires II", "Factorio", "Baldur's Gate 3", "Outer Wilds",
]
_VIDEO_TEMPLATES = [
    "I'm new to {x}. What should I know before I start?", "What makes {x} so popular?",
    "give me some beginner tips for {x}", "If I loved {x}, what else might I enjoy?",
    "Is {x} a good game to play with my 10-year-old?", "What's the story behind how {x} was made?",
]
_GROUPS = [
    "six adults who don't usually play board games", "two players on a rainy Sunday",
    "a family with kids aged 6 and 10", "a party of about 12 people", "a couple who like cooperative games",
    "my grandparents and my teenage kids together", "a work team-building afternoon",
    "friends who love heavy strategy games", "a long train journey with just a deck of cards",
    "a group of friends on a video call", "a friend stuck in bed recovering from surgery",
    "a class of 25 eleven-year-olds", "a camping trip with no electricity", "a games night with people who hate "
    "losing",
]
_GROUP_TEMPLATES = [
    "Recommend some games for {x}.", "What games would work well for {x}?", "need game ideas for {x}",
    "Can you suggest a few card or board games for {x}, with a line on why each one works?",
]
_DESIGN_TASKS = [
    "design my own board game", "balance a card game so one strategy doesn't dominate",
    "playtest a game with friends and get useful feedback", "write rules that people can actually follow",
    "make a two-player game that's fun in under 15 minutes", "design a good puzzle for an escape room",
    "make a video game level that teaches the player without any text", "turn a school topic into a game",
    "give a game a satisfying ending", "design a cooperative game where one player can't boss everyone around",
]
_DESIGN_TEMPLATES = [
    "How do I {x}?", "Any advice on how to {x}?", "I'm trying to {x}. Where do I start?",
    "what's the best way to {x}",
]
_GAME_HISTORY = [
    "chess", "playing cards", "Monopoly", "the Rubik's Cube", "the crossword puzzle", "sudoku",
    "Dungeons & Dragons", "Pong", "Tetris", "the Game Boy", "mahjong", "Go", "backgammon", "Scrabble",
    "the jigsaw puzzle", "the Royal Game of Ur", "Senet", "arcade games", "Pac-Man", "video game consoles",
]
_HISTORY_TEMPLATES = [
    "What's the history of {x}?", "How did {x} get started?", "tell me the origin story of {x}",
    "How has {x} changed over the years?",
]
_GAMES_ONEOFFS = [
    "What's a good method for solving a Rubik's Cube as a complete beginner?",
    "How do I get better at sudoku once I'm past the easy ones?",
    "Can you explain how cryptic crossword clues work, with an example?",
    "Invent a simple dice game for two players that takes five minutes to learn.",
    "Make up a party game for eight people that needs only paper and pens.",
    "What are the best opening principles in chess for a beginner?",
    "Why do people get so competitive over Monopoly? Is the game designed that way?",
    "what's the best first word in wordle",
    "How does the 'en passant' rule in chess work, and why does it exist?",
    "What's the difference between a Eurogame and an Ameritrash game?",
    "I want to start a weekly board game night at work. How do I get people interested?",
    "Explain the basic rules of Texas Hold'em like I've never seen a deck of cards.",
    "What are some good solo board games for when no one else wants to play?",
    "How do I run my first Dungeons & Dragons session as the Dungeon Master?",
    "Write a short, dramatic intro for a murder-mystery dinner party game set on a 1920s train.",
    "Is it true that the house always wins in a casino? Explain the maths simply.",
    "How do speedrunners find glitches and shortcuts in games?",
    "My kids argue over every game we play. How can we make family game night less stressful?",
    "What are some good puzzle video games for someone who doesn't usually play video games?",
    "Why are some games, like Go, so hard for computers to master?",
    "what are house rules and which ones ruin monopoly",
    "Can you suggest a word game we can play in the car with no equipment?",
    "How do I solve a nonogram?", "What makes a good riddle for an escape room?",
    "Explain what a 'roguelike' is and why they're so popular.",
    "What are some classic card games I can play by myself besides solitaire?",
    "How do I explain to my gran what a video game 'open world' is?",
    "I'm hosting a quiz-and-games night for my book club. Can you plan the running order for two hours?",
    "What's the most important skill in bridge, and how do beginners usually learn it?",
    "Are board game cafés worth it? What should I expect on a first visit?",
    "What's a good game to teach the idea of probability to a 12-year-old?",
    "Why is the knight's move in chess shaped like an L?",
    "Come up with three new rules to make Snakes and Ladders more interesting for adults.",
    "How do I get out of a losing streak in online chess without rage-quitting?",
]
_GAMES_SUFFIX = ["Keep it short.", "Bullet points, please.", "Please keep it beginner-friendly.",
                      "A quick overview is fine."]


@_category("games", "games: board, card and video games and puzzles; rules, strategy tips, game design, history of "
                    "games and recommendations for a group")
def _gen_games(rng: random.Random) -> list[str]:
    table = _fill(_GAMES_TABLE_TEMPLATES, _TABLE_GAMES)
    video = _fill(_VIDEO_TEMPLATES, _VIDEO_GAMES)
    groups = _fill(_GROUP_TEMPLATES, _GROUPS)
    design = _fill(_DESIGN_TEMPLATES, _DESIGN_TASKS)
    history = _fill(_HISTORY_TEMPLATES, _GAME_HISTORY)
    out = (_take(rng, table, 110) + _take(rng, video, 55) + _take(rng, groups, 40) + _take(rng, design, 30)
           + _take(rng, history, 40) + _GAMES_ONEOFFS)
    return _decorate_finished(rng, out, _GAMES_SUFFIX, 0.12)


# ---------------------------------------------------------------------------------------
# Law, buildings, inventions, oceans, festivals, crafts: everyday legal concepts in general terms (law), buildings, styles
# and structures (architecture), the history and workings of inventions (inventions), the
# sea, marine life and boating (oceans), holidays and traditions around the world
# (festivals), and DIY and handicrafts (crafts).
# ---------------------------------------------------------------------------------------

# --- law -------------------------------------------------------------------------------

_LAW_CONCEPTS = [
    "a contract", "a residential lease", "small claims court", "copyright", "a will", "probate",
    "a power of attorney", "fair use", "a trademark", "a patent", "a security deposit", "a non-disclosure agreement",
    "a non-compete clause", "a statute of limitations", "due process", "a class action lawsuit", "an appeal",
    "a plea bargain", "jury duty", "a subpoena", "mediation", "arbitration", "a notary public", "an affidavit",
    "negligence", "defamation", "a restraining order", "bail", "the presumption of innocence", "the public domain",
    "a prenuptial agreement", "a living will", "a cooling-off period", "a legal precedent", "a small-business LLC",
    "joint and several liability", "a lien on a property", "an easement", "renters' insurance",
    "an implied warranty", "a breach of contract", "a guardianship", "a deed",
]
_LAW_CONCEPT_TEMPLATES = [
    "What is {x}, in plain English?", "Explain {x} like I'm completely new to legal stuff.", "how does {x} work",
    "What's the basic idea behind {x}? I know the details vary by country.",
    "I keep hearing about {x}. What does it actually mean, in general terms?",
    "What are the most common misconceptions about {x}?",
    "Give me a short, general overview of {x} with one everyday example.",
    "Can you explain {x} to a 16-year-old who's just started learning about the law?",
    "what is {x} and when would an ordinary person come across it",
]
_LAW_PAIRS = [
    ("a will", "a trust"), ("a misdemeanour", "a felony"), ("copyright", "a trademark"), ("a patent", "copyright"),
    ("mediation", "arbitration"), ("civil law", "criminal law"), ("a month-to-month rental", "a fixed-term lease"),
    ("a solicitor", "a barrister"), ("a lawyer", "a paralegal"), ("a guarantee", "a warranty"),
    ("libel", "slander"), ("being arrested", "being detained"), ("an executor", "a beneficiary"),
    ("small claims court", "ordinary civil court"), ("a state court", "a federal court"),
    ("burglary", "robbery"), ("an employee", "an independent contractor"), ("a verbal agreement", "a written contract"),
    ("fair use", "the public domain"), ("a refund", "store credit"), ("a prosecutor", "a defence lawyer"),
    ("a divorce", "an annulment"), ("a settlement", "a court judgment"), ("a fine", "a criminal record"),
    ("a power of attorney", "a living will"), ("a deposit", "a down payment"), ("being sued", "being charged"),
    ("a judge's job", "a jury's job"), ("common law", "civil law systems"), ("a lease", "a licence to occupy"),
]
_LAW_PAIR_TEMPLATES = [
    "What's the difference between {x} and {y}?", "{X} vs {y}: what's the difference, in general terms?",
    "I always mix up {x} and {y}. How do they differ?", "how is {x} different from {y}",
]
_LAW_SITUATIONS = [
    "my landlord still hasn't returned my security deposit two months after I moved out",
    "I got a parking ticket for a sign I honestly couldn't see",
    "a shop won't refund a kettle that stopped working after two weeks",
    "my neighbour's tree roots are cracking my driveway",
    "a builder took a deposit for a kitchen job and then stopped answering my calls",
    "I signed up for a gym contract and now I want to cancel it",
    "someone is using my photos on their website without asking",
    "my employer hasn't paid me for my last two weeks of work",
    "I got a speeding ticket while driving in another state",
    "my flight was cancelled and the airline is only offering vouchers",
    "a friend borrowed $800 and won't pay it back",
    "my dad died without leaving a will",
    "I was in a minor car accident and the other driver is blaming me",
    "my landlord keeps letting himself into the flat without giving notice",
    "an online seller sent me a fake product and won't reply to messages",
    "my new job wants me to sign a non-compete agreement",
    "I bought a used car from a dealer and it broke down a week later",
    "my neighbour is building a fence that looks like it's on my side of the line",
    "a company keeps charging my card for a subscription I cancelled",
    "my landlord says he's selling the house and I have to be out in two weeks",
    "I've been asked to be the executor of my aunt's will",
    "I found out a shop kept my deposit for an order they never delivered",
]
_LAW_SITUATION_TEMPLATES = [
    "{X}. In general terms, what options do people usually have?",
    "{X}. I know you can't advise on my specific case, but how does this usually work?",
    "{X}. What general rules tend to apply, and who could I ask for proper advice?",
    "so {x}... where does someone even start with this kind of thing",
    "{X}. Can you walk me through the usual process, step by step?",
]
_LAW_QS = [
    "How does a case actually end up at a supreme court?", "What happens at a small claims hearing, step by step?",
    "What does a jury actually do during a trial?", "Is a handshake deal legally binding?",
    "Can a verbal agreement count as a contract?",
    "Explain the basic parts of a contract: offer, acceptance and consideration.",
    "How long does copyright usually last, roughly?", "Are recipes protected by copyright?",
    "Can you copyright a name or a short slogan?", "What usually happens if someone ignores a traffic ticket?",
    "What does contesting a traffic ticket usually involve?", "Why are legal documents written so confusingly?",
    "What's a 'reasonable person' in law, and why does the idea come up so often?",
    "What does 'beyond reasonable doubt' mean in practice?", "Why do some countries use juries and others don't?",
    "What does a notary actually do when they stamp a document?", "How does jury selection work?",
    "What generally happens after someone is arrested?", "What is a public defender?",
    "What does it mean to 'settle out of court'?", "Why do so many lawsuits settle before they reach trial?",
    "When I click 'I agree' on terms and conditions, am I really bound by all of it?",
    "Are 'no refunds' signs in shops always legal?", "What does 'sold as is' mean when you buy a used car?",
    "How is a shop's warranty different from my basic consumer rights?",
    "Can a landlord generally raise the rent whenever they want?",
    "What's typically included in a residential lease?", "Why does a will need witnesses?",
    "Can people write their own will without a lawyer? What are the risks?",
    "What happens to someone's debts when they die?", "What is an executor expected to do?",
    "Explain small claims court to someone who has never set foot in a courtroom.",
    "Write a short FAQ about jury duty for first-timers.",
    "Create a glossary of ten legal terms that come up when renting a flat, with one-line definitions.",
    "What are Miranda rights, and where does the name come from?",
    "What does 'double jeopardy' mean, and why does the rule exist?",
    "how do class action settlements work, like when you get a tiny cheque in the mail",
    "is it legal to record a phone call without telling the other person? i know it depends on where you are",
    "what does pro bono mean", "Can a photographer publish a photo of me taken in a public place?",
    "Why isn't ignorance of the law an excuse?", "How do judges decide what a law means when the wording is unclear?",
    "What's the point of having appeal courts?", "What should a freelancer's basic contract usually include?",
    "Write a plain-English summary of what a typical non-disclosure agreement says.",
    "Why does everyone say 'read the fine print'? What kinds of things hide there?",
    "My teenager asked what lawyers actually do all day. How would you explain it?",
    "Who owns the copyright to a photo: the photographer or the person in it?",
    "Is it legal to resell concert tickets for more than you paid?",
    "Why do so many subscriptions renew automatically, and how do consumer laws deal with that?",
    "What does 'innocent until proven guilty' mean for how a trial is run?",
    "How does a court decide who keeps the dog after a breakup?",
    "What's the difference between a crime and a civil wrong, with examples?",
    "Why do contracts have so many definitions at the start?",
    "What is 'consideration' in a contract? My textbook explanation makes no sense.",
    "How do courts work in general? Give me the big picture in five bullet points.",
    "What does a court clerk do?", "What's an 'objection' in court, and is it like on TV?",
    "How realistic are courtroom dramas? What do they usually get wrong?",
    "What are squatters' rights, and are they real?", "What is the difference between a court and a tribunal?",
    "Why do people need a lawyer to buy a house in some countries and not others?",
    "What is a 'reasonable time' to return faulty goods, generally speaking?",
    "Write a polite, general template letter asking a landlord to return a deposit.",
    "Write a short, friendly explainer for teenagers on what copyright means for the music and videos they post.",
    "Is it illegal to use a famous brand's logo on a T-shirt I'm selling? Just the general idea.",
    "What's the general difference between a ticket you can pay and one where you have to go to court?",
    "Why do traffic tickets sometimes come with points on your licence?",
]
_LAW_SUFFIX = [
    "Keep it general.", "Keep it short.", "Plain English, please.", "Use a simple example.",
    "Bullet points are fine.", "I'm in the UK, if that matters.", "I'm in the US, if that matters.",
]


@_category("law", "everyday legal concepts in general terms: contracts, renting, wills, copyright, consumer "
                  "rights, tickets, how courts work (general information, not case advice)")
def _gen_law(rng: random.Random) -> list[str]:
    concepts = _take(rng, _fill(_LAW_CONCEPT_TEMPLATES, _LAW_CONCEPTS), 140)
    pairs = _take(rng, _fill(_LAW_PAIR_TEMPLATES, _LAW_PAIRS), 60)
    situations = _take(rng, _fill(_LAW_SITUATION_TEMPLATES, _LAW_SITUATIONS), 75)
    return _decorate_finished(rng, concepts + pairs + situations + _LAW_QS, _LAW_SUFFIX, 0.15)


# --- architecture ----------------------------------------------------------------------

_ARCH_STYLES = [
    "Gothic architecture", "Art Deco", "Brutalism", "the Bauhaus style", "Baroque architecture",
    "Romanesque architecture", "Art Nouveau", "modernist architecture", "postmodern architecture",
    "Victorian architecture", "Georgian architecture", "Tudor architecture", "the Craftsman style",
    "mid-century modern design", "Palladian architecture", "neoclassical architecture", "Islamic architecture",
    "traditional Japanese architecture", "Byzantine architecture", "the Prairie style", "deconstructivism",
    "high-tech architecture", "Spanish Colonial architecture", "Scandinavian modern design", "Ottoman architecture",
    "the Chicago School of skyscraper design",
]
_ARCH_STYLE_TEMPLATES = [
    "What are the main features of {x}?", "How can I recognise {x} when I see it?",
    "Where did {x} come from, and why did it catch on?", "Name a few famous examples of {x} and what makes them good.",
    "explain {x} to me like i know nothing about buildings",
    "What ideas about life or society does {x} reflect?",
    "Give me a quick tour of {x}: key features, a bit of history and one building to look up.",
    "Why do people have such strong opinions about {x}?",
]
_ARCH_SITES = [
    "the Pantheon in Rome", "the Eiffel Tower", "the Golden Gate Bridge", "the Burj Khalifa",
    "Notre-Dame de Paris", "the Sydney Opera House", "the Taj Mahal", "Hagia Sophia", "Fallingwater",
    "the Colosseum", "the Parthenon", "the Sagrada Família", "the Empire State Building",
    "the Guggenheim Museum in Bilbao", "the Great Pyramid of Giza", "the Leaning Tower of Pisa",
    "Florence Cathedral's dome", "Angkor Wat", "the Brooklyn Bridge", "the Shard in London", "Machu Picchu",
    "St. Peter's Basilica", "the Petronas Towers", "the Alhambra", "the Forbidden City", "Habitat 67 in Montreal",
    "the Flatiron Building", "the Millau Viaduct", "Chartres Cathedral", "the Chrysler Building",
    "the Pont du Gard", "Himeji Castle", "the Forth Bridge", "the Dome of the Rock",
]
_ARCH_SITE_TEMPLATES = [
    "Why is {x} considered so important architecturally?", "How was {x} built?",
    "Tell me the story behind {x}.", "What's clever about the engineering of {x}?",
    "I'm visiting {x} next week. What details should I look out for?", "what style is {x}, and why does it matter",
    "Write a short tour-guide script about {x}.", "What would it take to build {x} today?",
]
_ARCH_MATERIALS = [
    "cross-laminated timber", "rammed earth", "concrete", "brick", "stone", "bamboo", "straw bales", "adobe",
    "steel framing", "structural insulated panels", "cob", "timber frame", "hempcrete", "recycled shipping containers",
]
_ARCH_MATERIAL_TEMPLATES = [
    "What are the pros and cons of building with {x}?", "How long does a house built from {x} usually last?",
    "would {x} work for building a small family home", "Why do some architects like working with {x}?",
]
_ARCH_PAIRS = [
    ("Gothic", "Romanesque architecture"), ("Art Deco", "Art Nouveau"), ("modernism", "postmodernism"),
    ("an architect", "a structural engineer"), ("a bungalow", "a cottage"), ("a townhouse", "a terraced house"),
    ("Baroque", "Renaissance architecture"), ("a dome", "a vault"), ("a column", "a pillar"),
    ("a suspension bridge", "a cable-stayed bridge"), ("Georgian", "Victorian houses"),
    ("a duplex", "a semi-detached house"), ("Brutalism", "modernism"), ("a loft", "an attic"),
    ("an arch bridge", "a beam bridge"), ("a cathedral", "a basilica"), ("an atrium", "a courtyard"),
]
_ARCH_PAIR_TEMPLATES = [
    "What's the difference between {x} and {y}?", "How can I tell {x} from {y}?",
    "{X} vs {y}? explain the difference simply",
]
_ARCH_QS = [
    "How do skyscrapers stay up in strong winds?", "How does a suspension bridge actually hold up the road?",
    "How did the Romans build domes without steel?", "Why can an arch carry so much weight?",
    "What is a flying buttress, and what does it do?", "How are buildings in Japan designed to survive earthquakes?",
    "What's a tuned mass damper, and why do some skyscrapers have one?",
    "Why do skyscrapers need such deep foundations?",
    "What is a cantilever? Give me a few famous examples.", "How does reinforced concrete work?",
    "What's a load-bearing wall, and how can you tell if a wall is one?",
    "Why do medieval churches have such thick walls and small windows?",
    "How do engineers stop a very tall building from swaying too much?", "How are tunnels built under rivers?",
    "Why did the Tacoma Narrows Bridge collapse?", "How do geodesic domes work?",
    "How tall could we build a skyscraper with today's materials?",
    "Why do some bridges have gaps called expansion joints?",
    "How did Brunelleschi build the dome of Florence Cathedral without scaffolding from the ground?",
    "How did medieval builders design cathedrals without modern maths or computers?",
    "What does a structural engineer check before a building can open?",
    "Why do so many old houses in hot countries have courtyards?", "Why are roofs steeper in snowy places?",
    "Why are old European town centres so twisty, while many American cities are grids?",
    "Why do so many American suburbs look the same?", "What makes a neighbourhood walkable?",
    "What is the '15-minute city' idea, and why is it controversial?", "What is passive house design?",
    "How do architects design a building to get good natural light?", "How do I read an architectural floor plan?",
    "What's the 'kitchen work triangle', and does it still matter?",
    "What are the downsides of an open-plan layout that people don't think about?",
    "We're choosing between a house with a big open-plan kitchen and one with separate rooms. We have two "
    "small kids and both work from home. What should we think about?",
    "Describe a good layout for a small two-bedroom flat of about 60 square metres.",
    "What's the point of a mudroom, and do I need one?", "How do architects make a small room feel bigger?",
    "Why are ceilings in older houses often so much higher than in new ones?",
    "What makes a public square feel pleasant rather than empty?",
    "Why do so many new apartment blocks look alike?", "What is green architecture, beyond putting plants on roofs?",
    "How do green roofs work, and are they worth it?", "What was Le Corbusier trying to do?",
    "Who was Zaha Hadid, and why are her buildings so distinctive?",
    "What did Frank Lloyd Wright mean by 'organic architecture'?",
    "Why did Gaudí's buildings look so different from everything around them?",
    "Who was Christopher Wren, and what did he build after the Great Fire of London?",
    "what does an architect actually do day to day", "How long does it take to become an architect?",
    "Why are so many famous old buildings symmetrical?", "What is the golden ratio, and do architects really use it?",
    "How do architects design buildings for people in wheelchairs?",
    "What makes a building 'iconic' rather than just big?", "Why did so many cities build tower blocks in the 1960s?",
    "Why are some historic buildings protected from being changed?",
    "How do architects restore an old building without ruining its character?",
    "Write a short poem about the light inside an old cathedral.",
    "Describe a futuristic city street in about 100 words, focusing on the buildings.",
    "Write a one-paragraph estate-agent description of a tiny, quirky cottage.",
    "Describe the house of your dreams as an architect would pitch it to a client.",
    "Give me five famous buildings to look up if I want to understand modern architecture.",
    "my city is knocking down an old brutalist library. why do some people want to save it",
    "What's the oldest building still in use today?", "How do lighthouses survive huge waves?",
    "How were castles designed to be defended?", "Why do mosques often have domes and minarets?",
    "What's the difference between architecture and interior design?",
    "Why are so many modern office buildings covered in glass, and is that a problem?",
]
_ARCH_SUFFIX = ["Keep it short.", "Explain it without jargon.", "Use an everyday analogy.",
                     "A few sentences is enough.", "Bullet points are fine."]


@_category("architecture", "buildings and structures: architectural styles, famous buildings, how bridges and "
                           "towers stand up, materials, urban design, home layouts")
def _gen_architecture(rng: random.Random) -> list[str]:
    styles = _take(rng, _fill(_ARCH_STYLE_TEMPLATES, _ARCH_STYLES), 90)
    sites = _take(rng, _fill(_ARCH_SITE_TEMPLATES, _ARCH_SITES), 110)
    materials = _take(rng, _fill(_ARCH_MATERIAL_TEMPLATES, _ARCH_MATERIALS), 30)
    pairs = _take(rng, _fill(_ARCH_PAIR_TEMPLATES, _ARCH_PAIRS), 35)
    out = styles + sites + materials + pairs + _ARCH_QS
    return _decorate_finished(rng, out, _ARCH_SUFFIX, 0.15)


# --- inventions ------------------------------------------------------------------------

_INVENTIONS_INVENTIONS = [
    "the printing press", "the refrigerator", "the steam engine", "the zip", "GPS", "the microwave oven",
    "the telephone", "the light bulb", "the bicycle", "the internal combustion engine", "the washing machine",
    "the vacuum cleaner", "the sewing machine", "the camera", "the radio", "television", "the telegraph",
    "the flushing toilet", "air conditioning", "the jet engine", "the mechanical clock", "the ballpoint pen",
    "Velcro", "the typewriter", "the passenger lift", "the barcode", "the smoke detector", "the battery",
    "the transistor", "the magnetic compass", "the thermometer", "the dishwasher", "the escalator",
    "the X-ray machine", "the photocopier", "the seed drill", "the calculator",
    "the electric guitar", "the pacemaker", "the hearing aid", "the parachute",
]
_INVENTION_TEMPLATES = [
    "Who invented {x}, and how did it change everyday life?", "How does {x} actually work? Explain it simply.",
    "What's the story behind the invention of {x}?", "how did {x} change the world",
    "Was {x} invented by one person, or did lots of people contribute?",
    "What did people use before {x} came along?", "Explain how {x} works to a curious 10-year-old.",
    "What problem was {x} originally meant to solve?",
    "Write a short, fun history of {x} for a school newsletter.",
    "Which earlier inventions had to exist before {x} was possible?",
]
_BEFORE = [  # (what people did, the invention)
    ("keep food cold", "fridges"), ("tell the time at night", "mechanical clocks"),
    ("find their way at sea", "GPS"), ("wash their clothes", "washing machines"),
    ("light their homes", "electric light"), ("send urgent messages a long way", "the telegraph"),
    ("keep cool in hot summers", "air conditioning"), ("make copies of documents", "photocopiers"),
    ("brush their teeth", "modern toothbrushes"), ("keep food for long sea voyages", "canning"),
    ("do complicated sums", "calculators"), ("see where they were going at night", "torches"),
    ("listen to music at home", "the gramophone"), ("check for a fever", "thermometers"),
    ("heat their homes", "central heating"),
    ("look up facts", "the internet"), ("get to the top of tall buildings", "lifts"),
    ("clean their floors", "vacuum cleaners"), ("fasten their trousers", "the zip"),
    ("keep milk from going off", "pasteurisation"), ("get news from abroad", "radio and the telegraph"),
]
_BEFORE_TEMPLATES = [
    "How did people {x} before {y}?", "what did people do to {x} before {y} existed",
    "Before {y}, how did ordinary people {x}?",
]
_INVENTION_QS = [
    "How does a fridge keep things cold without any ice?", "How does a microwave actually heat food?",
    "How does my phone's GPS know where I am?", "How does a zip work? It seems like magic.",
    "How does a four-stroke car engine work, step by step?", "Why was the printing press such a big deal?",
    "Who really invented the light bulb? Was it just Edison?",
    "What everyday inventions came out of the space programme?",
    "What are some famous inventions that happened by accident?", "Tell me about a few inventors who never got credit.",
    "What's the most important invention of the last 200 years, and why?",
    "Write a short dialogue between Gutenberg and a modern blogger.",
    "How did the Industrial Revolution change the way everyday things were made?",
    "How does a mechanical watch keep time without a battery?",
    "How does a thermostat know when to turn the heating on?", "How do noise-cancelling headphones work?",
    "How does an electric motor turn electricity into movement?", "How does a pin tumbler lock work inside?",
    "How does a touchscreen know where my finger is?", "How does a flush toilet work?",
    "How does a pressure cooker cook food faster?", "How do bicycle gears make pedalling easier?",
    "How does a smoke alarm detect smoke?", "Why was the Model T Ford such a turning point?",
    "What did Nikola Tesla actually invent?", "What was Ada Lovelace's contribution to computing?",
    "Who was Hedy Lamarr, and what did she invent?", "How did the Wright brothers get their plane to fly?",
    "How was Gutenberg's press different from earlier printing in China and Korea?",
    "What did James Watt actually improve about the steam engine?",
    "List ten everyday objects that were invented in the 20th century.",
    "Rank the five most important kitchen inventions and explain your choices.",
    "my grandma says life was way harder before washing machines. how long did laundry actually take back then",
    "Which ancient inventions do we still use every day?", "How did the Romans heat their baths?",
    "How did ancient Egyptians keep track of time?", "What was the Antikythera mechanism?",
    "How did the barcode change shopping?",
    "How did the cotton gin change American history?", "How does a dishwasher get plates clean without scrubbing?",
    "How does a vacuum cleaner create suction?", "How did old film cameras capture an image?",
    "How do fibre-optic cables carry information with light?",
    "How were telephone calls connected before automatic exchanges?",
    "Imagine explaining a smartphone to someone from 1900. Write what you'd say.",
    "Write a short story about the day the first refrigerator arrived in a small village.",
    "Why did it take so long for the bicycle to get its modern shape?",
    "Why did early cars need a hand crank to start?", "How did the invention of the clock change how people worked?",
    "How did cheap paper and printing change who could read?",
    "What's the difference between an invention and a discovery?",
    "Why do some inventions take decades to catch on?", "What are some inventions that were way ahead of their time?",
    "What are some inventions that flopped at first and later became huge?",
    "How did people get ice in summer before electric freezers?",
    "What was life like before anaesthesia was invented?", "Who invented the World Wide Web, and why?",
    "How did the first computers work without microchips?", "How does a jet engine push a plane forward?",
    "How does a steam locomotive turn coal into motion?", "How does a sewing machine make a stitch with two threads?",
    "How does a microwave differ from a normal oven in how it cooks?",
    "What everyday things around my house came from military inventions?",
    "Give me a timeline of the ten biggest milestones in communication technology.",
    "What inventions do you think people in 100 years will find as old-fashioned as we find the typewriter?",
    "how does a lava lamp work", "How does a compass needle know where north is?",
    "Why was the invention of the stirrup such a big deal for history?",
]
_INVENTION_SUFFIX = ["Keep it short.", "Explain it for a 12-year-old.", "Include one surprising fact.",
                          "A few sentences is fine.", "No jargon, please."]


@_category("inventions", "history of technology and how everyday machines work: inventions, inventors, and how "
                         "people managed before them")
def _gen_inventions(rng: random.Random) -> list[str]:
    inventions = _take(rng, _fill(_INVENTION_TEMPLATES, _INVENTIONS_INVENTIONS), 205)
    before = _take(rng, _fill(_BEFORE_TEMPLATES, _BEFORE), 45)
    return _decorate_finished(rng, inventions + before + _INVENTION_QS, _INVENTION_SUFFIX, 0.15)


# --- oceans ----------------------------------------------------------------------------

_SEA_LIFE = [
    "octopuses", "sea turtles", "jellyfish", "clownfish", "blue whales", "seahorses", "starfish", "hammerhead sharks",
    "coral polyps", "anglerfish", "manatees", "krill", "sea urchins", "moray eels", "hermit crabs", "giant squid",
    "sea cucumbers", "lanternfish", "parrotfish", "barnacles", "sea anemones", "flying fish", "nudibranchs",
    "horseshoe crabs", "lobsters", "bluefin tuna", "sperm whales", "whale sharks", "cuttlefish", "sea lions",
]
_SEA_LIFE_TEMPLATES = [
    "What's the most surprising thing about {x}?", "Tell me about {x}: where they live, what they eat, how long "
    "they live.", "Where in the ocean would I find {x}?", "why are {x} important to the ocean",
    "Write a short fact file about {x} for a primary school class.", "How do {x} reproduce?",
    "What would happen to the ocean if {x} disappeared?", "Are {x} affected by warming seas?",
]
_SEA_PLACES = [
    "the Great Barrier Reef", "the Mariana Trench", "the Sargasso Sea", "the Southern Ocean", "the Arctic Ocean",
    "the Red Sea", "the waters around the Galápagos", "the Bay of Fundy", "the Mid-Atlantic Ridge",
    "the Coral Triangle", "the Baltic Sea", "Monterey Bay", "the kelp forests off California", "the Dead Sea",
    "the Gulf of Mexico", "the Bering Sea",
]
_SEA_PLACE_TEMPLATES = [
    "What makes {x} special?", "What lives in {x}?", "tell me something surprising about {x}",
    "What are the biggest threats facing {x} today?",
]
_SEA_QS = [
    "Why does the sea have tides?", "Why are there usually two high tides a day?",
    "What are spring tides and neap tides?", "How do ocean currents affect the weather on land?",
    "Why is the ocean salty but rivers aren't?", "Why does the sea look blue, or sometimes green?",
    "How deep is the Mariana Trench, and what lives down there?", "What is the global ocean conveyor belt?",
    "How does an earthquake under the sea cause a tsunami?", "Why do waves break as they reach the beach?",
    "What causes coral bleaching, and can reefs recover?", "How do coral reefs form in the first place?",
    "What's the ocean's 'twilight zone'?", "How do deep-sea creatures make their own light?",
    "What are hydrothermal vents, and why do scientists find them so exciting?",
    "What is ocean acidification, in simple terms?", "What is the Great Pacific Garbage Patch really like?",
    "What is El Niño, and why does it matter so far from the Pacific?",
    "How much of the ocean have we actually explored?", "How do rogue waves form?",
    "Why is the deep ocean so cold even near the equator?", "How do whales hold their breath for so long?",
    "How do fish breathe underwater?", "Why don't fish freeze in polar seas?", "How do sea turtles navigate?",
    "How do octopuses change colour so fast?", "Do sharks really need to keep swimming to breathe?",
    "Why do whales sing?", "How do oysters make pearls?", "Why do some beaches have black sand?",
    "Where does sand on beaches come from?", "Why does the sea smell the way it does?",
    "How do submarines dive and come back up?", "How do oceanographers map the sea floor?",
    "What's the difference between an ocean and a sea?", "What's the difference between a tide and a current?",
    "What's the difference between a dolphin and a porpoise?", "What's the difference between a sea and a bay?",
    "why is the water so much colder in the atlantic than the mediterranean in summer",
    "Why do some parts of the sea glow blue at night?", "What are sea level changes doing to low-lying islands?",
    "How do tides work in places like the Bay of Fundy where they're enormous?",
    "What's the deepest any human has ever gone in the ocean?", "How do scientists tag and track sharks and whales?",
    "Is it true we know more about the surface of the Moon than the deep sea floor?",
    "What's the difference between a coral reef and a kelp forest?",
    "Why do some fish swim in huge schools?", "How do seabirds drink salt water?",
    "I'm going whale watching next month. What should I expect, and how can I choose a responsible tour?",
    "i saw a seal on the beach on its own. should i do anything or leave it alone",
    # beach safety
    "What is a rip current, and how do I get out of one?", "How can I spot a rip current from the beach?",
    "What do the red and yellow flags on a beach mean?", "What should I do if I get stung by a jellyfish?",
    "How can I tell if the tide is coming in when I'm walking along a beach?",
    "what's the safest way to take kids snorkelling for the first time",
    "How do I check tide times before a coastal walk, and why does it matter?",
    "Is it dangerous to swim in the sea at night?", "What should I do if someone is struggling in the water?",
    "How worried should I actually be about sharks when swimming?", "Is it safe to swim near a river mouth?",
    "Write a short beach-safety checklist for a family holiday.",
    "My kids want to go rock-pooling. How do we do it safely and without harming anything?",
    "What's a weever fish, and what do I do if I step on one?",
    # sailing and boating
    "I'm new to sailing. What do port, starboard, bow and stern mean?",
    "How can a sailing boat sail into the wind?", "What does 'tacking' mean in sailing?",
    "What's a gybe, and why do instructors make such a fuss about it?",
    "What are the basic right-of-way rules between boats?", "How do I tie a bowline, step by step?",
    "What should I check about the weather before taking a small boat out?",
    "What's the difference between a lifejacket and a buoyancy aid?",
    "How do you anchor a small boat properly?", "What do the coloured lights on boats at night mean?",
    "What does a knot mean as a unit of speed, and where does the name come from?",
    "How do I read a basic nautical chart?", "What are the first things I'd learn on a beginner sailing course?",
    "how do you avoid seasickness on a boat", "Kayaking or paddleboarding on the sea: what should a beginner know?",
    "What's a Beaufort scale, and how many knots of wind is too much for a beginner dinghy sailor?",
    "How did sailors navigate across oceans before GPS?", "What should be on a safety checklist for a day sail?",
    # conservation
    "What are marine protected areas, and do they work?", "How does overfishing happen, and what can be done?",
    "What does 'sustainable seafood' actually mean?", "How can I tell if the fish I'm buying is sustainable?",
    "Why are plastic bags so dangerous for sea turtles?", "Where does ocean plastic actually come from?",
    "How do microplastics end up in seafood?", "Are beach clean-ups actually worth doing?",
    "What is bottom trawling, and why is it controversial?", "Why are mangroves important for the sea?",
    "What's being done to protect coral reefs?", "Is reef-safe sunscreen a real thing?",
    "How did whale numbers recover after commercial whaling was banned?",
    "What's the biggest threat to the oceans right now?",
    "What can someone living far from the coast do for the ocean?",
    "Write a short speech for a school assembly about why the ocean matters.",
    "Write a haiku about the tide going out.", "Describe what it's like at the bottom of the ocean, as a short story.",
    "Write a short poem from the point of view of a lighthouse keeper watching a storm.",
]
_SEA_SUFFIX = ["Keep it short.", "Answer for a curious 12-year-old.", "Include one surprising fact.",
                    "Bullet points, please.", "A few sentences is fine."]


@_category("oceans", "the sea: marine life, tides, currents, reefs, the deep ocean, sailing basics, beach safety, "
                     "ocean conservation")
def _gen_oceans(rng: random.Random) -> list[str]:
    life = _take(rng, _fill(_SEA_LIFE_TEMPLATES, _SEA_LIFE), 170)
    places = _take(rng, _fill(_SEA_PLACE_TEMPLATES, _SEA_PLACES), 50)
    return _decorate_finished(rng, life + places + _SEA_QS, _SEA_SUFFIX, 0.15)


# --- festivals -------------------------------------------------------------------------

_HOLIDAYS = [
    "Diwali", "Lunar New Year", "Eid al-Fitr", "Eid al-Adha", "Hanukkah", "Passover", "Nowruz", "Kwanzaa",
    "Chuseok", "Vesak", "Rosh Hashanah", "Holi", "Onam", "the Mid-Autumn Festival", "the Day of the Dead",
    "Thanksgiving", "Easter", "Christmas", "Durga Puja", "Songkran", "Obon", "Purim", "Orthodox Christmas",
    "Lohri", "Tết", "Sukkot", "Raksha Bandhan", "Matariki", "Juneteenth",
]
_HOLIDAY_TEMPLATES = [
    "What is {x}, and how do people celebrate it?", "What are the origins of {x}?",
    "What do people traditionally cook for {x}?", "What's a good greeting for someone celebrating {x}?",
    "My new coworker celebrates {x}. What's it about, and is there anything thoughtful I could do?",
    "I've been invited to a friend's family for {x}. What should I expect, and should I bring something?",
    "explain {x} to a 7-year-old", "What are the main traditions and symbols of {x}?",
    "How has the way people celebrate {x} changed over the years?",
    "Write a short, warm message to send a friend for {x}.", "what's the story behind {x}",
    "Is there anything I should avoid doing or saying around {x}?",
]
_FESTIVALS_EVENTS = [
    "Carnival in Rio", "Oktoberfest in Munich", "La Tomatina", "Up Helly Aa", "Hogmanay in Edinburgh",
    "St. Patrick's Day in Dublin", "Loy Krathong in Chiang Mai", "King's Day in Amsterdam", "Inti Raymi in Cusco",
    "the Notting Hill Carnival", "Mardi Gras in New Orleans", "the Sapporo Snow Festival", "the Harbin Ice Festival",
    "Midsummer in Sweden", "the Day of the Dead in Oaxaca", "the Gion Matsuri in Kyoto", "Las Fallas in Valencia",
    "the Venice Carnival", "the Pushkar Camel Fair", "the Boryeong Mud Festival", "the Edinburgh Fringe",
    "the Rose Parade in Pasadena",
]
_EVENT_TEMPLATES = [
    "What goes on at {x}, and how did it start?", "I'm going to {x} this year. Any tips for a first-timer?",
    "Is {x} suitable for families with young kids?", "what should i pack for {x}",
    "Tell me the history of {x} in a couple of paragraphs.",
    "What's the best way to experience {x} without the worst of the crowds?",
]
_FEST_QS = [
    "Help me plan a small Lunar New Year dinner for six friends.",
    "I'm hosting my first Thanksgiving for ten people. Give me a timeline for the day.",
    "Plan a Diwali activity for my daughter's class that's respectful and fun.",
    "Write a shopping list for a Hanukkah latke party for twelve.", "ideas for celebrating christmas on a tight budget",
    "Our office wants to be more inclusive in December. How can we celebrate without making it all about Christmas?",
    "How do I explain to my kids why our neighbours don't celebrate Christmas?",
    "Give me a plan for a Swedish-style midsummer party in our garden.",
    "Write a short, upbeat toast for a New Year's Eve party.",
    "What are some New Year traditions from around the world?",
    "Why do different cultures celebrate the new year on different dates?", "Why does Easter move every year?",
    "Why do Ramadan and Eid fall on different dates each year?",
    "What is a lunar calendar, and which festivals follow one?",
    "How do people observe Ramadan, and what's a day of fasting like?", "What is Yom Kippur, and how is it observed?",
    "What's a kind thing to say to a Muslim colleague during Ramadan?",
    "Which harvest festivals are celebrated around the world?",
    "What are some festivals of light from different cultures?",
    "Why do so many winter festivals involve lights and fire?",
    "Write a short poem about lanterns at the Mid-Autumn Festival.",
    "Describe a Day of the Dead altar and what each item on it means.",
    "What are mooncakes, and why are they eaten at the Mid-Autumn Festival?",
    "People sometimes call Hanukkah 'Jewish Christmas'. Why is that misleading?",
    "What's on a traditional Passover Seder plate, and what does each item stand for?",
    "What is the haft-sin table at Nowruz?",
    "Why do people give red envelopes at Lunar New Year, and how much goes in one?",
    "Why do people wear green on St. Patrick's Day?", "Why do we carve pumpkins at Halloween?",
    "Where does Halloween come from?", "How did Valentine's Day start?",
    "What is Boxing Day, and where does the name come from?",
    "What's Epiphany, and why do some countries eat a king cake?", "What is Lent, and why do people give things up?",
    "What is Pancake Day all about?", "Is it OK for me to join a Holi celebration if I'm not Hindu?",
    "Explain Thanksgiving to someone who didn't grow up in the US.", "Why is Bonfire Night celebrated with fireworks?",
    "Help me write a Lunar New Year card with a traditional wish, explained in English.",
    "What are some Christmas traditions in countries I might not expect?",
    "how do people in australia do christmas when it's summer there",
    "My partner's family is Jewish and I'm going to my first Seder. What do I need to know?",
    "What's the etiquette for giving gifts at Diwali?",
    "Plan a kids' afternoon for learning about world festivals, with one simple craft per festival.",
    "Give me a month-by-month calendar of major festivals around the world.",
    "If I could travel for just one festival next year, which would you recommend and why?",
    "How is Christmas celebrated in Ethiopia, and why is it in January?",
    "What's the difference between Christmas and Orthodox Christmas?",
    "Why do some people celebrate on Christmas Eve and others on Christmas Day?",
    "What's the story of the Tooth Fairy and similar traditions in other countries?",
    "Why do Americans celebrate the Fourth of July with fireworks and barbecues?",
    "What is Bastille Day, and how is it celebrated in France?", "What happens on Anzac Day?",
    "What's the origin of birthday cakes and candles?", "How do different cultures celebrate a baby's first birthday?",
    "What are some coming-of-age celebrations around the world?",
    "I'm hosting an Eid dinner for my in-laws for the first time. Help me plan the menu and timing.",
    "Our family celebrates both Christmas and Hanukkah. Any ideas for blending traditions?",
    "Suggest a fun, low-cost way to celebrate the summer solstice with friends.",
    "Write a short story about a child experiencing their first Lunar New Year in a new country.",
    "What's a good way to explain Diwali to a class of 8-year-olds in five minutes?",
    "i just moved to japan. what holidays should i know about in my first year",
    "What are the 'golden week' holidays in Japan and China?", "What is Ramadan like for kids who are fasting?",
    "Why do some festivals involve dressing up in masks and costumes?",
    "What's the difference between a religious holiday and a national holiday?",
]
_FEST_SUFFIX = ["Keep it short.", "Explain it for someone who's never heard of it.", "A few sentences is fine.",
                     "Bullet points are fine.", "Keep it simple."]


@_category("festivals", "holidays and traditions around the world: origins, customs, foods, greetings, and planning "
                        "or explaining a celebration")
def _gen_festivals(rng: random.Random) -> list[str]:
    holidays = _take(rng, _fill(_HOLIDAY_TEMPLATES, _HOLIDAYS), 205)
    events = _take(rng, _fill(_EVENT_TEMPLATES, _FESTIVALS_EVENTS), 60)
    return _decorate_finished(rng, holidays + events + _FEST_QS, _FEST_SUFFIX, 0.12)


# --- crafts ----------------------------------------------------------------------------

_PROJECTS = [
    "a simple wooden birdhouse", "a knitted scarf", "a crocheted granny square", "a lined tote bag",
    "a clay pinch pot", "a wooden chopping board", "a patchwork cushion cover", "origami cranes",
    "a hand-bound notebook", "a macramé plant hanger", "a set of cork coasters", "a small bookshelf",
    "a quilted potholder", "a beaded bracelet", "a paper lantern", "a felt Christmas decoration", "a simple apron",
    "a hand-carved wooden spoon", "fingerless gloves", "a tie-dye T-shirt", "soy candles", "an embroidery sampler",
    "a rag rug", "a coil-built clay pot", "a wooden picture frame", "a knitted beanie", "a pop-up birthday card",
    "a fabric scrunchie", "a raised garden planter", "a simple quilt for a baby",
]
_PROJECT_TEMPLATES = [
    "How do I make {x}? Step by step, please.", "I'm a complete beginner. What do I need to make {x}?",
    "What are the most common mistakes people make with {x} the first time?",
    "how long would it take a beginner to make {x}", "Can you write beginner-friendly instructions for {x}?",
    "I want to make {x} as a gift. Is that realistic for a first project?",
    "What tools and materials would I need for {x}, on a budget?",
    "Break down making {x} into small steps I can do over a weekend.",
]
_TECHNIQUES = [
    "casting on", "the purl stitch", "sewing on a button", "centring clay on a wheel", "wedging clay",
    "sanding wood smoothly", "sharpening a chisel", "following a sewing pattern", "threading a sewing machine",
    "blocking a finished knit", "reading a knitting pattern", "the crochet chain stitch", "cutting a dovetail joint",
    "glazing pottery", "using a rotary cutter", "sewing a French seam", "hemming trousers by hand",
    "finishing wood with oil", "sawing a straight line with a handsaw", "tying basic macramé knots",
    "changing colours in knitting", "binding off", "scoring and slipping clay", "mitring the corners of a frame",
    "darning a sock", "patching a hole in jeans", "picking up dropped stitches", "using a coping saw",
    "setting a sewing machine's tension", "backstitch embroidery",
]
_TECHNIQUE_TEMPLATES = [
    "Can you explain {x} for a beginner?", "I'm struggling with {x}. Any tips?",
    "explain {x} like i've never done it before", "What do beginners usually get wrong about {x}?",
    "Walk me through {x}, one step at a time.",
]
_CRAFT_PAIRS = [
    ("a jigsaw", "a circular saw"), ("a drill", "an impact driver"), ("knitting", "crochet"),
    ("acrylic yarn", "wool"), ("earthenware", "stoneware"), ("air-dry clay", "polymer clay"),
    ("an overlocker", "a regular sewing machine"), ("hardwood", "softwood"), ("embroidery", "cross-stitch"),
    ("a coping saw", "a hacksaw"), ("circular needles", "straight needles"), ("hand-building", "the pottery wheel"),
    ("an oil-based wood finish", "a water-based one"), ("a glue gun", "craft glue"), ("a cordless drill",
    "a corded one"),
    ("cotton fabric", "polyester"),
]
_CRAFT_PAIR_TEMPLATES = [
    "What's the difference between {x} and {y}, and which should a beginner start with?",
    "{X} or {y}? help me decide", "When would I use {x} instead of {y}?",
]
_CRAFT_QS = [
    "How do I fix a wobbly wooden chair?", "There's a white water ring on my wooden table. Can I get it out?",
    "How do I fix a zip that keeps coming apart?", "How do I mend a small hole in a wool jumper?",
    "How can I repair a chipped ceramic mug, and is it still safe to drink from?",
    "How do I reattach a loose drawer handle when the screw hole is stripped?",
    "How do I fill a nail hole in a wooden floor so it doesn't show?",
    "My favourite jeans ripped at the knee. How do I patch them?",
    "How do I fix a loose chair leg that keeps wobbling?", "How do I replace a broken button on a coat?",
    "I have a spare weekend and about $50. What craft project could I start and finish?",
    "My 8-year-old wants to learn to sew. What's a good first project?",
    "I'm recovering from surgery and stuck on the sofa for weeks. Which crafts can I do sitting down?",
    "Which crafts are good for winding down after a stressful day?",
    "I live in a small flat. What's the minimum I need to start woodworking?",
    "Write a four-week plan for learning to knit from scratch.",
    "Give me ten paper craft ideas for a rainy afternoon with kids.",
    "Write a short, friendly instruction card for making a paper fortune teller.",
    "What basic tools should every beginner woodworker own?", "What should be in a basic sewing kit?",
    "What safety gear do I need before I start using power tools?",
    "How do I choose the right yarn for a first project?",
    "What does 'weight' mean for yarn, and why does it matter?", "How do I store clay so it doesn't dry out?",
    "Can I make pottery at home without a kiln?", "What's the easiest pottery project for a total beginner?",
    "How do I choose sandpaper grits, and in what order do I use them?",
    "What's the best way to get a smooth finish when painting furniture?",
    "How do I upcycle an old chest of drawers?", "What can I make from old T-shirts?",
    "how do people make those really neat origami boxes", "What are some good crafts to sell at a local market?",
    "How do I price handmade items without underselling myself?",
    "My knitting keeps coming out too tight. What am I doing wrong?",
    "Why does my sewing machine keep jamming?", "Why did my clay pot crack in the kiln?",
    "Why does my crochet keep curling at the edges?", "Why does my wood glue joint keep failing?",
    "Suggest five quick handmade gifts I could make in an evening.",
    "Give me a list of beginner woodworking projects, from easiest to hardest.",
    "How do I read a sewing pattern envelope?", "How do I measure myself properly for sewing clothes?",
    "What is quilting, and how is a quilt put together?", "How do I start a bullet journal with nice lettering?",
    "What is kintsugi, and can I try it at home?", "What's the best way to teach a child to knit?",
    "How do I make homemade play dough that lasts?", "How do I press flowers for crafts?",
    "What's a simple craft project for a group of adults at a community centre?",
    "Help me plan a crafting afternoon for a 10-year-old's birthday party.",
    "I inherited my grandmother's sewing machine. How do I get it working again?",
    "How do I keep my hands safe when carving wood?",
    "What's the difference between a hobby knife and a utility knife?",
    "What is needle felting, and is it hard to learn?", "How do I get into bookbinding?",
    "Write step-by-step instructions for making a simple paper snowflake.",
    "Describe how to make a basic candle, from melting the wax to trimming the wick.",
    "how do i stop my embroidery fabric from puckering",
    "What are some crafts that use up leftover yarn?", "How do I make a basic pom-pom without a pom-pom maker?",
]
_CRAFT_SUFFIX = ["Keep it short.", "I'm a total beginner.", "Assume I only have basic tools.",
                      "I'm left-handed, if that matters."]


@_category("crafts", "DIY and handicrafts: woodworking, knitting, sewing, pottery, paper crafts, simple repairs, "
                     "tools and beginner projects, step by step")
def _gen_crafts(rng: random.Random) -> list[str]:
    projects = _take(rng, _fill(_PROJECT_TEMPLATES, _PROJECTS), 150)
    techniques = _take(rng, _fill(_TECHNIQUE_TEMPLATES, _TECHNIQUES), 80)
    pairs = _take(rng, _fill(_CRAFT_PAIR_TEMPLATES, _CRAFT_PAIRS), 35)
    return _decorate_finished(rng, projects, _CRAFT_SUFFIX, 0.2) + techniques + pairs + _CRAFT_QS


# ---------------------------------------------------------------------------------------
# Aviation, transit, farming, geology, chemistry, energy: aviation (how planes fly, turbulence, airports and flying as a
# passenger, pilots' work, aviation history, helicopters, drones and gliders), transit (trains,
# buses, trams, subways and ferries, commuting, tickets and passes, railway history, rail
# travel abroad, city transport planning), farming (crops, soil, livestock, the farming year,
# smallholdings and backyard hens, machinery, farm to shop, farming history), geology (rocks
# and minerals, volcanoes, earthquakes, plate tectonics, fossils, caves, gemstones, rock
# collecting, reading landscapes), chemistry (everyday and kitchen chemistry, the periodic
# table, acids and bases, safe home experiments, famous chemists, homework questions) and
# energy (electricity at home, bills and saving energy, solar panels, heat pumps, EV charging,
# the grid, power stations, renewables and fossil fuels).
# ---------------------------------------------------------------------------------------

# --- aviation --------------------------------------------------------------------------

_AIR_CONCEPTS = [
    "how a wing produces lift", "what actually causes turbulence", "why planes take off and land into the wind",
    "how a jet engine differs from a propeller engine", "what the flaps on a wing do during landing",
    "how pilots navigate over the middle of an ocean", "what air traffic controllers actually do",
    "why aeroplane cabins are pressurised", "what autopilot can and can't do",
    "how a plane can land when the pilots can barely see the runway", "what a stall means for an aeroplane",
    "how a helicopter stays in the air", "how a glider stays up without an engine",
    "why flights from New York to London are usually quicker than the other way",
    "what a flight data recorder records", "how planes are de-iced before take-off in winter",
    "why aeroplane windows have rounded corners", "what 'V1' means during a take-off run",
    "how the rudder, ailerons and elevator steer a plane", "what a holding pattern is", "how runways are numbered",
    "what wake turbulence is", "why airliners cruise at around 35,000 feet",
    "how a big jet can still glide if all its engines stop", "what a go-around is and why pilots do them",
    "what the upturned winglets at the end of a wing do", "how a seaplane takes off from water",
    "what the Mach number means", "what a pitot tube measures", "how a drone keeps itself level in the wind",
    "how hot-air balloon pilots steer when they can't turn", "why a lightning strike rarely harms a plane",
    "why pilots use the 'Alpha, Bravo, Charlie' alphabet", "how airlines work out a plane's weight and balance",
    "why planes follow curved routes on a flat map", "how pilots decide how much fuel to carry",
    "how the landing gear absorbs the shock of touchdown", "why a plane's engines get quieter after take-off",
]
_AIR_AUD = ["", ", in simple terms", " for a nervous flyer", " in a few sentences", " using a simple analogy",
                 ", the way a pilot would put it to passengers"]
_AIR_QUESTIONS = [
    "is turbulence ever dangerous for a big passenger jet", "can a twin-engine plane really fly on one engine",
    "can a mobile phone really interfere with a plane's instruments",
    "is it true that the back of the plane is the safest place to sit",
    "could someone open a plane door in the middle of a flight", "do pilots take naps on long-haul flights",
    "why do they dim the cabin lights for take-off and landing", "why do I have to open my window blind for landing",
    "what happens if a bird flies into a jet engine", "can planes fly through thunderstorms",
    "is flying really safer than driving", "why does food taste so bland on a plane",
    "why does the plane make a barking noise before it takes off", "what's that loud thud just after take-off",
    "do planes dump fuel before an emergency landing", "why do I have to switch my phone to flight mode",
    "how do pilots know where other planes are", "where does the oxygen in the drop-down masks come from",
    "do big passenger planes have ignition keys like cars",
    "how long can an airliner stay in the air without refuelling",
    "why do planes have flashing lights on the wingtips", "why do flight attendants check the doors before take-off",
    "why do planes sometimes circle before landing", "can a plane land itself with no pilot touching the controls",
    "why do my ears pop more on the way down than on the way up",
    "why do planes leave white trails across the sky",
]
_AIR_Q_TEMPLATES = ["{X}?", "{x}", "Honest answer, please: {x}?", "I fly a lot and keep wondering: {x}?"]
_AIR_PROBLEMS = [
    "my flight from Manchester to Lisbon was cancelled four hours before departure",
    "my flight to Amsterdam was delayed three hours and I missed my connection",
    "the airline lost my suitcase on the way to Toronto", "I've been bumped off an overbooked flight",
    "our flight was diverted to another city and we're stuck there overnight",
    "my suitcase came off the carousel with a broken wheel and a huge crack",
    "I paid for a window seat and got moved to a middle seat without any explanation",
    "I'm at the check-in desk and my bag is 3 kg over the limit",
    "we sat on the runway for two hours before the flight was cancelled",
    "the airline changed my flight time by six hours and now I'll miss my hotel check-in",
    "I missed my flight because the security queue took over an hour",
]
_AIR_PROBLEM_TEMPLATES = ["{X}. What should I do now?", "{X}. What are my options?", "{x}. what can i do",
                               "{X}. How should I handle this?"]
_AIR_TRIPS = [
    "I'm taking my first ever flight next week, from Leeds to Dublin",
    "I'm flying alone with a two-year-old for the first time", "I'm 6'5\" and have a ten-hour flight in economy",
    "I'm scared of flying and have a work trip to Singapore next month",
    "I'm flying to Tokyo and will cross nine time zones", "I want to take my guitar on the plane as hand luggage",
    "my grandmother uses a wheelchair and is flying for the first time in twenty years",
    "I have a 6am flight and live an hour and a half from the airport",
    "I'm flying with my cat in the cabin", "I've got an eleven-hour layover in Istanbul",
    "I'm a student flying to Canada for a semester with two huge suitcases",
    "I have a 50-minute connection at Frankfurt airport", "I'm flying long-haul with a toddler and a baby",
]
_AIR_TRIP_TEMPLATES = ["{X}. Any tips?", "{X}. What should I know before I go?",
                            "{x}. how do i make this go smoothly", "{X}. What should I plan for?"]
_AIR_BOOKING = [
    "a codeshare flight", "a red-eye flight", "an open-jaw ticket", "a basic economy fare",
    "a self-transfer connection", "a stopover", "a fare class letter", "a 'hidden city' ticket",
    "a flight operated by a partner airline", "a 'through-checked' bag",
]
_AIR_BOOKING_TEMPLATES = ["What is {x}?", "My booking mentions {x}. What does that mean for me?",
                               "explain {x} like i've never booked a flight before"]
_AIR_RADIO = ["Mayday", "pan-pan", "roger", "wilco", "squawk", "heavy", "niner", "souls on board",
                   "line up and wait", "hold short", "cleared to land"]
_AIR_RADIO_TEMPLATES = ["What does '{x}' mean in pilot radio talk?",
                             "i keep hearing '{x}' on air traffic control recordings. what does it mean"]
_AIR_HISTORY = [
    "the Wright brothers' first powered flight", "Amelia Earhart's final flight", "Concorde",
    "the Hindenburg disaster", "the Boeing 747", "the Supermarine Spitfire", "the Berlin Airlift",
    "Charles Lindbergh's solo flight across the Atlantic", "Louis Blériot's flight across the English Channel",
    "the de Havilland Comet", "the Montgolfier brothers' hot-air balloon",
    "Bessie Coleman", "the Airbus A380", "Igor Sikorsky's first practical helicopter",
    "the SR-71 Blackbird", "Pan Am's flying boats", "Alcock and Brown's non-stop transatlantic flight",
    "the Tuskegee Airmen", "Chuck Yeager breaking the sound barrier", "Otto Lilienthal's gliders",
]
_AIR_HISTORY_TEMPLATES = ["Tell me the story of {x}.", "Where does {x} fit in aviation history?",
                               "what's the big deal about {x}",
                               "Give me a five-sentence summary of {x} for a school project."]
_AIR_HOBBIES = [
    "learn to fly a small plane", "get a private pilot's licence", "fly drones as a hobby", "try gliding",
    "learn to fly hot-air balloons", "become an airline pilot", "become a flight attendant",
    "become an air traffic controller", "build a radio-controlled plane", "get into plane spotting",
    "learn to fly a helicopter", "use a flight simulator to learn real flying skills",
]
_AIR_HOBBY_TEMPLATES = ["How do I {x}?", "What does it take to {x}?", "roughly what would it cost to {x}",
                             "What should I know before I decide to {x}?"]
_AIR_PAIRS = [
    ("a helicopter", "a plane"), ("a glider", "a powered plane"), ("a turboprop", "a jet"),
    ("an Airbus A320", "a Boeing 737"), ("a window seat", "an aisle seat"), ("a drone", "a model plane"),
    ("a direct flight", "a cheaper one with a connection"), ("a budget airline", "a full-service airline"),
    ("a hot-air balloon", "an airship"), ("a fighter jet", "an airliner"),
    ("a two-engine airliner", "a four-engine airliner"), ("a private pilot", "an airline pilot"),
]
_AIR_PAIR_TEMPLATES = ["What's the difference between {x} and {y}?", "Compare {x} and {y} for me.",
                            "how is {x} different from {y}"]
_AIR_WRITES = [
    "a calm, reassuring captain's announcement about a 40-minute delay",
    "a short poem about watching planes take off at dusk",
    "a firm but courteous message chasing a suitcase the airline mislaid five days ago",
    "a bedtime story about a little plane that's afraid of clouds",
    "a packing checklist for a carry-on-only weekend trip",
    "a thank-you note to a flight attendant who looked after my anxious son",
    "a one-minute talk for my class on how planes fly", "a funny safety briefing for a flight to the North Pole",
    "a diary entry from a passenger on the first transatlantic passenger flight",
]
_AIR_WRITE_TEMPLATES = ["Write {x}.", "Can you write {x}?", "write me {x}"]
_AIR_ONEOFFS = [
    "In three bullet points, tell me what pilots check before every take-off, then give me one fun fact about "
    "cockpits.",
    "Give me a 100-word explanation of why planes don't just fall out of the sky, for a nervous seven-year-old.",
    "What does a commercial pilot's working day actually look like, from arriving at the airport to going home?",
    "How do pilots deal with jet lag when they fly across the world several times a month?",
    "I'm a nervous flyer. What are the normal noises and bumps on a flight, so I know what not to worry about?",
    "How early should I realistically get to the airport for a short domestic flight with only hand luggage?",
    "Why do airlines overbook flights? It seems unfair.",
    "What are the rules for taking liquids through airport security, and why do they exist?",
    "Explain how an aeroplane turns, step by step, as if I'm in the cockpit watching.",
    "Is it worth paying extra for an exit row seat?",
    "how do drone pilots get permission to fly near towns",
    "Why do some airports have such short runways, and how do pilots handle them?",
    "My son wants to be a pilot when he grows up. What subjects at school would help him?",
    "Pretend you're a flight attendant and explain to a first-time flyer what happens from boarding to landing.",
    "How do helicopters fly backwards and sideways?",
    "Why did Concorde stop flying?",
    "What do the different lights on a runway mean at night?",
    "How do gliders find rising air to stay up for hours?",
    "What's the difference between a private jet and a normal airliner for the passengers?",
    "Why is the Boeing 747 called the 'Queen of the Skies'?",
    "Give me five myths about flying that most people believe, and the truth behind each.",
    "What happens to all the rubbish and toilet waste on a plane?",
    "how do planes find the runway at night",
    "I want to watch planes land with my kids. What should we look and listen for?",
    "What does a flight dispatcher do, and how is it different from air traffic control?",
    "How are pilots trained for emergencies they'll probably never face?",
    "Compare travelling from London to Edinburgh by plane and by train, door to door.",
    "Why can't I use my laptop during take-off on some flights?",
    "Why are cabin crew so strict about seat backs being upright for landing?",
    "Explain how an airport decides which runway to use each day.",
    "Why do small propeller planes bounce around more than big jets?",
    "How do air ambulance helicopters land in the middle of a road or field?",
    "What checks do pilots do walking around the plane before a flight?",
]
_AIR_TEXTS = [  # tasks on a short given text: never decorated
    "Make this sound professional for a work email: \"hey, flight got pushed back again, prob won't make the 3pm, "
    "sorry!!\"",
    "Summarise this announcement for my kids in one sentence: \"Ladies and gentlemen, the captain has switched "
    "on the fasten seatbelt sign. We expect some light turbulence for the next twenty minutes. Please return to "
    "your seats and keep your seatbelts fastened.\"",
    "Rewrite this airline email in plain English: \"We regret to inform you that flight BA482 has been "
    "rescheduled from 09:40 to 14:15 due to operational reasons. Should the revised time be unsuitable, you may "
    "request a full refund or rebook free of charge via Manage My Booking.\"",
    "Continue this story for two paragraphs: \"The plane dropped suddenly, and three rows behind me someone "
    "laughed.\"",
    "Turn this into three quiz questions: \"In 1919, John Alcock and Arthur Brown flew a modified Vickers Vimy "
    "from Newfoundland to Ireland in about 16 hours, battling fog and ice before landing in a bog near Clifden.\"",
]
_AIR_SUFFIX = ["Keep it short.", "Please avoid jargon.", "Just the short version, please.",
                    "Explain it like I'm new to flying."]


@_category("aviation", "aviation: how planes fly, turbulence, airports and flying as a passenger, pilots' work, "
                       "aviation history, helicopters, drones and gliders, and flying myths")
def _gen_aviation(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "I've never understood {x}. Could you explain it{y}?"),
                           _AIR_CONCEPTS, _AIR_AUD)
    concepts += _fill(["eli5 {x}"], [c for c in _AIR_CONCEPTS if c.startswith(("how", "why"))])
    concepts += _fill(["My daughter asked me {x} and I had no idea. What should I tell her?"], _AIR_CONCEPTS)
    questions = _fill(_AIR_Q_TEMPLATES, _AIR_QUESTIONS)
    problems = _fill(_AIR_PROBLEM_TEMPLATES, _AIR_PROBLEMS)
    trips = _fill(_AIR_TRIP_TEMPLATES, _AIR_TRIPS)
    booking = _fill(_AIR_BOOKING_TEMPLATES, _AIR_BOOKING)
    radio = _fill(_AIR_RADIO_TEMPLATES, _AIR_RADIO)
    history = _fill(_AIR_HISTORY_TEMPLATES, _AIR_HISTORY)
    hobbies = _fill(_AIR_HOBBY_TEMPLATES, _AIR_HOBBIES)
    pairs = _fill(_AIR_PAIR_TEMPLATES, _AIR_PAIRS)
    writes = _fill(_AIR_WRITE_TEMPLATES, _AIR_WRITES)
    out = (_take(rng, concepts, 80) + _take(rng, questions, 40) + _take(rng, problems, 28) + _take(rng, trips, 30)
           + _take(rng, booking, 16) + _take(rng, radio, 12) + _take(rng, history, 32) + _take(rng, hobbies, 26)
           + _take(rng, pairs, 22) + _AIR_ONEOFFS)
    return _decorate_finished(rng, out, _AIR_SUFFIX, 0.12) + _take(rng, writes, 14) + _AIR_TEXTS


# --- transit ---------------------------------------------------------------------------

_TRANSIT_CONCEPTS = [
    "how railway signals keep trains from crashing into each other", "why trains run on steel wheels on steel rails",
    "how a maglev train floats above the track", "how tilting trains lean into curves",
    "why the width between the rails differs from country to country",
    "how an electric train gets power from the overhead wires", "how a third rail works",
    "why a train needs so much distance to stop", "how a railway timetable is put together",
    "how tunnels for an underground line are dug beneath a city", "why leaves on the line delay trains in autumn",
    "how the barriers at a level crossing know when a train is coming",
    "why buses often turn up in bunches after a long wait", "how a bus rapid transit system works",
    "how a ferry loads cars and lorries so quickly", "how tap-in, tap-out fares are worked out",
    "why frequent buses matter more to passengers than fast ones", "how a rack railway climbs steep mountains",
    "how the Channel Tunnel was built", "why railway tracks sit on a bed of stones",
    "how some metro lines run without drivers", "how railway points move a train onto another track",
    "why trains are slowed down during heatwaves", "how a funicular railway works",
    "why high-speed trains need their own dedicated tracks", "how low-floor trams help wheelchair users",
    "how a congestion charge is meant to work",
    "why many cities ripped out their trams and some are now bringing them back",
    "how a park-and-ride scheme works", "how a diesel-electric locomotive works",
    "why trains use less energy per passenger than cars", "how platform screen doors make metro stations safer",
    "how a cable car keeps its grip on the cable", "how cities decide where to put a new metro station",
    "why some railways run on the left and others on the right", "how a sleeper train is organised overnight",
    "how train drivers learn every signal on their route", "why the Tokyo rail system is so punctual",
]
_TRANSIT_AUD = ["", ", in simple terms", " for a transport-mad eight-year-old", " in a short paragraph",
                     " with a real-world example", ", as a transport engineer might explain it to a visitor"]
_TRANSIT_QUESTIONS = [
    "why are train tickets so expensive in the UK", "why is it cheaper to book train tickets weeks in advance",
    "can you really get money back if your train is late", "why doesn't the US have more passenger trains",
    "is it quicker to take the train or fly from London to Paris",
    "why do underground trains sometimes wait in the tunnel",
    "how do trains get up steep hills without their wheels slipping",
    "why did old trains make that clickety-clack sound", "why do the doors beep before they close",
    "why does the London Underground get so hot in summer", "why do night buses take such long routes",
    "is a railcard worth it if I only travel by train a few times a year",
    "why does the train sometimes leave a station going backwards",
    "why do trains stop between stations for no obvious reason",
    "can I take my bike on most trains", "why do ferries get cancelled in strong winds",
    "what's the longest train journey you can do in one go", "why are tram tracks so dangerous for cyclists",
    "why is first class often half empty when standard class is packed",
    "how do bus companies decide where to put bus stops", "why are some metro stations so deep underground",
    "do trains have brakes on every carriage", "why can't trains swerve to avoid things on the track",
    "what happens to a train if it hits a cow", "why are some countries' trains so much faster than others",
]
_TRANSIT_Q_TEMPLATES = ["{X}?", "{x}", "Genuine question: {x}?", "I've always wondered, {x}?"]
_TRANSIT_PROBLEMS = [
    "my train to Leeds was cancelled and the next one isn't for two hours", "my bus is late nearly every morning",
    "I missed the last train home and I'm stuck in the city centre",
    "I left my laptop bag on the 07:42 to Brighton", "I got a penalty fare because the ticket machine was broken",
    "the metro was so packed this morning that I couldn't get on three trains in a row",
    "I was charged the maximum fare because I forgot to tap out", "my ferry back from the island has been cancelled",
    "my connecting train was delayed and I've missed the last ferry",
    "the bus drove straight past my stop even though I rang the bell",
    "I bought an off-peak ticket but got on a peak-time train by mistake",
    "the train was so crowded that my wife, who is pregnant, had to stand for an hour",
]
_TRANSIT_PROBLEM_TEMPLATES = ["{X}. What should I do?", "{X}. What are my options?", "{x}. what now"]
_TRANSIT_PLANS = [
    "I'm travelling from London to Rome by train next spring",
    "I want to do a two-week Interrail trip around Central Europe",
    "I'm visiting Tokyo for the first time and the subway map looks terrifying",
    "I've moved to a city without a car and need to learn the bus network",
    "I'm taking the overnight sleeper train from Vienna to Venice", "I'm 70 and want to tour Scotland by train and bus",
    "I've landed at JFK and need to get to Manhattan on public transport",
    "my commute is two buses and a train, 90 minutes each way, and I want it to be less painful",
    "I want to take my bike on the train for a cycling holiday in France",
    "I'm taking a toddler and a buggy on the London Underground for the first time",
    "I want to cross Canada by train", "I use a wheelchair and want to plan a day trip by train",
    "I'm going to Switzerland for a week and keep hearing about the Swiss Travel Pass",
    "I'm starting a new job and will be commuting by train for the first time",
    "I'd like to travel from Bangkok to Singapore overland by train",
]
_TRANSIT_PLAN_TEMPLATES = ["{X}. Where do I start?", "{X}. What should I know?", "{x}. any tips",
                                "{X}. What do you suggest?"]
_TRANSIT_FAMOUS = [
    "the Trans-Siberian Railway", "the Glacier Express", "the Shinkansen", "the London Underground",
    "the Paris Métro", "the Moscow Metro", "the New York City Subway", "the Eurostar", "the Orient Express",
    "San Francisco's cable cars", "the Rocky Mountaineer", "India's railway network",
    "the Darjeeling Himalayan Railway", "the Staten Island Ferry", "the Flying Scotsman", "Stephenson's Rocket",
    "the Ghan in Australia", "the Qinghai–Tibet Railway", "the Bernina Express", "Curitiba's bus system",
    "the Hong Kong MTR", "the Liverpool and Manchester Railway",
]
_TRANSIT_FAMOUS_TEMPLATES = ["Tell me about {x}.", "What's the history of {x}?", "Why is {x} so famous?",
                                  "give me 5 interesting facts about {x}"]
_TRANSIT_TICKETS = [
    "an off-peak return", "a railcard", "a season ticket", "a daily fare cap", "a zone-based fare",
    "an advance ticket", "split ticketing", "a rail pass", "a flexi season ticket", "a seat reservation",
    "a contactless travel card", "a group travel discount",
]
_TRANSIT_TICKET_TEMPLATES = ["How does {x} work?", "What's {x}, and when is it worth it?",
                                  "explain {x} like i've never bought a train ticket"]
_TRANSIT_PAIRS = [
    ("the train", "a coach for a 300 km trip"), ("a bus", "a tram"), ("a metro", "a light rail line"),
    ("a sleeper train", "a budget flight"), ("an Interrail pass", "buying single tickets"),
    ("high-speed rail", "flying for a 600 km journey"), ("a monthly pass", "paying for each journey"),
    ("the Eurostar", "flying from London to Paris"), ("trams", "electric buses"),
    ("commuting by train", "driving"), ("a ferry", "a long drive round the coast"),
    ("a hop-on hop-off bus tour", "just using local buses"),
]
_TRANSIT_PAIR_TEMPLATES = ["{X} or {y}: which makes more sense?", "What are the pros and cons of {x} versus {y}?",
                                "compare {x} and {y} for me"]
_TRANSIT_DEBATES = [
    "free public transport", "car-free city centres", "building new high-speed rail lines",
    "24-hour metro services at weekends", "banning short flights where the train takes under three hours",
    "congestion charges", "driverless trains", "bus lanes on every main road",
    "cheaper fares paid for by higher parking charges", "reopening old branch lines",
    "replacing a town's buses with on-demand minibuses",
]
_TRANSIT_DEBATE_TEMPLATES = ["Give me the main arguments for and against {x}.",
                                  "Would {x} be a good idea? Give both sides.",
                                  "how would {x} affect ordinary people in a town like mine"]
_TRANSIT_WRITES = [
    "a short poem about a late-night bus ride",
    "an email to my manager saying I'll be late because of a signal failure",
    "a children's story about a little steam engine on its last journey",
    "a polite complaint to a bus company about a driver who didn't stop",
    "a packing list for a 30-hour train journey", "a travel diary entry from the Trans-Siberian Railway",
    "a short speech for a community meeting asking for a better bus service",
    "a funny post about my train being delayed by leaves on the line",
    "a one-day itinerary for a rail trip from Milan to Lake Como and back",
]
_TRANSIT_WRITE_TEMPLATES = ["Write {x}.", "Could you write {x}?", "help me write {x}"]
_TRANSIT_ONEOFFS = [
    "Explain how a metro map differs from a real map, then tell me who designed the first diagram-style Tube map.",
    "In under 100 words, convince my dad to take the train instead of driving to Glasgow.",
    "How do I read a railway timetable with all those columns and little symbols?",
    "What's the etiquette on a quiet carriage? Can I take a short phone call?",
    "Why did so many railway lines close in Britain in the 1960s?",
    "How did railways change the way people told the time?",
    "What should I know before taking an overnight ferry with a cabin for the first time?",
    "Is a Japan Rail Pass still worth buying after the price went up?",
    "Explain how a city like Copenhagen got so many people to cycle and use public transport.",
    "I commute by bus for an hour each way. Give me ideas to make that time useful or relaxing.",
    "How do I get a refund for a delayed train in the UK? Walk me through it.",
    "Why are buses free for older people in some countries, and who pays for it?",
    "what's the difference between a tram and a light rail",
    "You're a friendly station announcer. Explain to passengers why the 17:15 is delayed by a points failure.",
    "Plan a week in Italy using only trains, starting in Milan and ending in Naples.",
    "What makes a bus network easy to use for someone who has never used it before?",
    "Why do some trains split in two halfway through the journey?",
    "How do I know which end of the platform to stand at?",
    "Why are bus drivers so strict about not letting people board with a big pram when the bus is full?",
    "Which was the first railway to run passenger trains hauled entirely by steam, and when did it open?",
    "How do the Swiss manage to make trains, buses and boats connect so smoothly?",
    "I'm nervous about taking the subway alone at night. What are some sensible safety habits?",
    "What should be on a checklist for a day out by train with three kids under ten?",
    "Is it realistic to go car-free in a small town? What would I need to think about?",
    "Why do ferries have such strict check-in times compared with trains?",
    "My city is consulting on a new tram line. What questions should I ask at the public meeting?",
    "What's the best way to avoid motion sickness on a bus when I want to read?",
    "How do high-speed trains in China manage to run so fast on such long routes?",
]
_TRANSIT_TEXTS = [  # tasks on a short given text: never decorated
    "Make this complaint more effective without making it rude: \"Your trains are ALWAYS late and I am sick of it. "
    "Sort it out.\"",
    "Summarise this for a tourist in two sentences: \"Due to engineering works, there will be no service "
    "between Earl's Court and Richmond this weekend. A rail replacement bus will run every 10 minutes from "
    "stop K. Allow an extra 30 minutes for your journey.\"",
    "Rewrite this notice so it sounds friendlier: \"Passengers must not obstruct the doors. Delays caused by "
    "obstruction will be reported.\"",
    "Continue this short story: \"The last train out of the valley was three minutes late, and that was the "
    "first strange thing.\"",
    "Explain what this means: \"This ticket is valid on the date shown, off-peak, route: any permitted.\"",
]
_TRANSIT_SUFFIX = ["Keep it short.", "Bullet points, please.", "Just the short version, please.",
                        "Plain English, please."]


@_category("transit", "public transport: trains, buses, trams, subways and ferries, commuting, tickets and passes, "
                      "railway history, high-speed rail, rail travel abroad and city transport planning")
def _gen_transit(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "Could you walk me through {x}{y}?"), _TRANSIT_CONCEPTS,
                           _TRANSIT_AUD)
    concepts += _fill(["I've been reading about {x}, but everything I find is too technical. Can you simplify it?"],
                      _TRANSIT_CONCEPTS)
    questions = _fill(_TRANSIT_Q_TEMPLATES, _TRANSIT_QUESTIONS)
    problems = _fill(_TRANSIT_PROBLEM_TEMPLATES, _TRANSIT_PROBLEMS)
    plans = _fill(_TRANSIT_PLAN_TEMPLATES, _TRANSIT_PLANS)
    famous = _fill(_TRANSIT_FAMOUS_TEMPLATES, _TRANSIT_FAMOUS)
    tickets = _fill(_TRANSIT_TICKET_TEMPLATES, _TRANSIT_TICKETS)
    pairs = _fill(_TRANSIT_PAIR_TEMPLATES, _TRANSIT_PAIRS)
    debates = _fill(_TRANSIT_DEBATE_TEMPLATES, _TRANSIT_DEBATES)
    writes = _fill(_TRANSIT_WRITE_TEMPLATES, _TRANSIT_WRITES)
    out = (_take(rng, concepts, 80) + _take(rng, questions, 42) + _take(rng, problems, 26) + _take(rng, plans, 36)
           + _take(rng, famous, 38) + _take(rng, tickets, 20) + _take(rng, pairs, 24) + _take(rng, debates, 20)
           + _TRANSIT_ONEOFFS)
    return _decorate_finished(rng, out, _TRANSIT_SUFFIX, 0.12) + _take(rng, writes, 14) + _TRANSIT_TEXTS


# --- farming ---------------------------------------------------------------------------

_FARM_CONCEPTS = [
    "why farmers rotate their crops", "what nitrogen fertiliser actually does for a plant",
    "how a combine harvester cuts, threshes and cleans grain in one go", "why fields are sometimes left fallow",
    "why dairy cows have to have calves to keep producing milk", "what no-till farming is",
    "how big farms decide how much to irrigate", "what cover crops do",
    "how farmers know when wheat is ready to harvest",
    "why fruit growers rent beehives when their trees are in flower", "what silage is and why cattle eat it",
    "the difference between hay and straw", "why sheep have to be sheared every year",
    "how supermarket tomatoes are grown all year round", "how rice is grown in flooded paddies",
    "what precision farming with GPS-guided tractors means", "why some crops are genetically modified",
    "what 'free-range' actually means on a box of eggs", "what makes soil healthy",
    "how orchard growers protect blossom from a late frost", "how vertical farms grow food indoors",
    "why milk is pasteurised", "how hedgerows help wildlife on farmland", "why food prices rise after a drought",
    "why many governments pay subsidies to farmers", "how the Green Revolution changed farming",
    "how hydroponics grows plants without soil", "what happens on a sheep farm during lambing season",
    "why a cow's stomach has four compartments", "how terraced fields work on steep hillsides",
    "how fish farming works", "how earthworms improve soil", "what regenerative agriculture means",
    "how seed banks protect old crop varieties", "why farmers spread manure on their fields",
    "how a farmer decides what to plant each year", "what a farming cooperative is",
    "how crop breeding produced modern wheat",
]
_FARM_AUD = ["", ", in simple terms", " for a city kid who's never been on a farm", " in a few sentences",
                  " with an example from a real farm", ", the way a farmer might put it to visitors"]
_FARM_PROBLEMS = [
    "our hens have stopped laying since the days got shorter", "one of my hens keeps pecking the others",
    "my soil test says our vegetable plot is very acidic", "our goat keeps escaping through the fence",
    "a fox got into our chicken run last night", "the old apple trees on our new land haven't been pruned in years",
    "our potatoes came up with rough, scabby skins", "my chickens are laying eggs with very thin shells",
    "slugs destroyed half the lettuces I was growing to sell", "our small pasture turns into a mud bath every winter",
    "my sheep keep getting out onto the lane", "my courgette plants flower but never make any fruit",
]
_FARM_PROBLEM_TEMPLATES = ["{X}. What should I do?", "{x}. any advice",
                                "{X}. How do experienced smallholders deal with this?"]
_FARM_PLANS = [
    "I want to keep four hens in a small suburban garden",
    "we've just bought two acres and want to grow most of our own vegetables",
    "I'm thinking about getting two goats", "we want to keep bees on our allotment",
    "I want to start a small market garden and sell at the local farmers' market",
    "we're thinking of raising a couple of pigs", "I'm thinking of keeping ducks instead of chickens",
    "I want to turn a paddock into a wildflower meadow",
    "I'd like to grow enough potatoes to feed a family of four through the winter",
    "my kids want to hatch chicks from fertilised eggs", "I want to grow a patch of wheat and grind my own flour",
    "I'm an office worker in the city dreaming of buying a small farm", "I want to plant a small orchard",
]
_FARM_PLAN_TEMPLATES = ["{X}. Where should I start?", "{X}. What mistakes should I avoid?",
                             "{x}. is it a good idea", "{X}. How much time and money should I expect it to take?"]
_CROPS = [
    "wheat", "rice", "maize", "potatoes", "soybeans", "coffee", "cocoa", "tea", "cotton", "sugar cane",
    "sugar beet", "bananas", "avocados", "oats", "barley", "rapeseed", "olives", "wine grapes", "apples",
    "strawberries", "lentils", "cassava", "peanuts", "hops",
]
_CROP_TEMPLATES = ["How do farmers grow and harvest {x}?", "Which countries grow the most {x}, and why?",
                        "what does a year look like for a farmer who grows {x}",
                        "What are the biggest threats to farmers growing {x}?"]
_LIVESTOCK = [
    "dairy cows", "beef cattle", "sheep", "pigs", "laying hens", "meat chickens", "goats", "alpacas",
    "water buffalo", "ducks", "turkeys", "rabbits", "highland cattle", "geese",
]
_LIVESTOCK_TEMPLATES = ["How are {x} looked after on a typical farm?", "What do {x} eat, and how much?",
                             "what's a normal day like for a farmer who keeps {x}",
                             "What are the main welfare concerns with {x}, and how do good farms handle them?"]
_MACHINES = [
    "a combine harvester", "a seed drill", "a baler", "a plough", "a milking robot", "a crop sprayer",
    "a muck spreader", "a rotavator", "a grain dryer", "a potato harvester", "a cultivator", "a forage harvester",
    "a hedge trimmer on a tractor arm", "a rotary milking parlour",
]
_MACHINE_TEMPLATES = ["What does {x} do?", "How does {x} work?", "why would a farmer need {x}"]
_FARM_PAIRS = [
    ("organic", "conventional farming"), ("free-range eggs", "barn eggs"), ("grass-fed beef", "grain-fed beef"),
    ("hydroponics", "growing in soil"), ("a family farm", "an industrial-scale farm"),
    ("GM crops", "conventional crops"), ("no-till farming", "ploughing"),
    ("buying from a farm shop", "buying from a supermarket"), ("a polytunnel", "a glasshouse"),
    ("heritage breeds", "commercial breeds"), ("spring-sown", "autumn-sown wheat"),
    ("raw milk", "pasteurised milk"),
]
_FARM_PAIR_TEMPLATES = ["What's the real difference between {x} and {y}?",
                             "{X} vs {y}: what are the pros and cons?",
                             "which is actually better, {x} or {y}"]
_FARM_CHAIN = [
    "a loaf of bread", "a pint of milk", "a bag of salad", "a bar of chocolate", "a bag of coffee beans",
    "a bunch of bananas", "a box of eggs", "a steak", "a carton of orange juice", "a jar of honey",
    "a bag of frozen peas", "a tin of tomatoes", "a block of cheddar", "a bag of rice",
]
_FARM_CHAIN_TEMPLATES = ["Trace the journey of {x} from the farm to my supermarket shelf.",
                              "How much of the price of {x} actually goes to the farmer?",
                              "who handles {x} before it gets to me"]
_FARM_HISTORY = [
    "the Neolithic Revolution", "the enclosure movement in England", "Jethro Tull's seed drill", "the Dust Bowl",
    "the first tractors", "the Columbian Exchange", "the medieval three-field system", "Norman Borlaug",
    "the Haber–Bosch process", "the domestication of wheat", "the Aztec chinampas", "the Inca farming terraces",
    "the Norfolk four-crop rotation", "the Women's Land Army", "Soviet collective farms",
    "the potato's arrival in Europe",
]
_FARM_HISTORY_TEMPLATES = ["Tell me about {x}.", "How did {x} change farming?",
                                "where does {x} fit in the history of farming"]
_FARM_WRITES = [
    "a children's story about a lamb born in a snowstorm", "a short poem about harvest time",
    "an Instagram caption for our farm shop's first strawberries of the year",
    "a sign for our farm gate asking walkers to keep dogs on leads",
    "a paragraph for our veg box newsletter explaining why there are no carrots this week",
    "a friendly note to our neighbours warning them we'll be spreading muck next week",
    "a short talk for a class of eight-year-olds visiting a dairy farm",
    "a diary entry from a farm worker during the 1930s Dust Bowl",
]
_FARM_WRITE_TEMPLATES = ["Write {x}.", "Can you write {x}?", "write me {x}"]
_FARM_ONEOFFS = [
    "Make a simple table of common farm animals, what they're kept for, and what they mainly eat.",
    "In five bullet points, what should a total beginner know before keeping chickens?",
    "What does a farmer actually do in the middle of winter when nothing is growing?",
    "Walk me through a year on a British sheep farm, season by season.",
    "Why do so many farmers struggle to make a living even when food prices are high?",
    "Is organic food actually better for the environment? Give me a balanced answer.",
    "how much land does it take to feed one person for a year",
    "What does a cow eat in a day, and how much water does it drink?",
    "Why do cows and sheep need salt licks?",
    "What's the difference between a farm and a ranch?",
    "How do farmers cope with a wet harvest when the wheat can't be cut?",
    "I've inherited 40 acres of grassland. What are some realistic ways to make it earn money?",
    "Why are egg yolks different colours from different farms?",
    "My daughter wants to be a farmer but we don't own any land. What routes into farming exist?",
    "Explain the farm-to-table journey of a lettuce as if you're a lettuce.",
    "What are the basic daily jobs for someone keeping three backyard chickens?",
    "Why do tractors have such huge back wheels and small front ones?",
    "How did farmers manage before artificial fertilisers?",
    "Why do some fields have big white plastic-wrapped bales in them?",
    "What's the point of the strips of wildflowers at the edges of some fields?",
    "Is it cruel to keep chickens in a garden, or can they have a good life there?",
    "Why are farmers so worried about soil erosion?",
    "what happens to male calves on a dairy farm",
    "How do beekeepers get honey out of the hive without getting stung all the time?",
    "Pretend you're an old farmer talking to a new apprentice. Give your best advice for the first lambing season.",
    "Which vegetables give the most food for the least space on a small plot?",
    "Why is there so much debate about pesticides like glyphosate? Give both sides simply.",
    "How do seasons differ for farmers in the tropics compared with farmers in Europe?",
    "What's a smallholding, and how is it different from a hobby farm?",
]
_FARM_TEXTS = [  # tasks on a short given text: never decorated
    "Fix the spelling and make this farm shop notice clearer: \"Fresh egs avalable daily, honnesty box by the gate, "
    "plese leave change in tin\"",
    "Summarise this for our farm's website in two friendly sentences: \"Our 120 Jersey cows graze outdoors "
    "from April to October and are milked twice a day. All our milk is bottled on site and delivered within 20 "
    "miles.\"",
    "Rewrite this farm sign so it's less aggressive: \"KEEP OUT. NO DOGS. GATES MUST BE SHUT. TRESPASSERS WILL "
    "BE PROSECUTED.\"",
    "Continue this story: \"The storm came in over the barley just as the last trailer left the field.\"",
]
_FARM_SUFFIX = ["Keep it short.", "Bullet points, please.", "Please keep it practical.",
                     "Assume I know nothing about farming."]


@_category("farming", "farming: crops and soil, livestock, the farming year, smallholdings and backyard hens, "
                      "farm machinery, how food gets from farm to shop, organic versus conventional, farming history")
def _gen_farming(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "I'd like to know {x}. Can you explain it{y}?"), _FARM_CONCEPTS,
                           _FARM_AUD)
    concepts += _fill(["On a farm visit, my nephew asked me {x}. How would you explain it?"], _FARM_CONCEPTS)
    problems = _fill(_FARM_PROBLEM_TEMPLATES, _FARM_PROBLEMS)
    plans = _fill(_FARM_PLAN_TEMPLATES, _FARM_PLANS)
    crops = _fill(_CROP_TEMPLATES, _CROPS)
    livestock = _fill(_LIVESTOCK_TEMPLATES, _LIVESTOCK)
    machines = _fill(_MACHINE_TEMPLATES, _MACHINES)
    pairs = _fill(_FARM_PAIR_TEMPLATES, _FARM_PAIRS)
    chain = _fill(_FARM_CHAIN_TEMPLATES, _FARM_CHAIN)
    history = _fill(_FARM_HISTORY_TEMPLATES, _FARM_HISTORY)
    writes = _fill(_FARM_WRITE_TEMPLATES, _FARM_WRITES)
    out = (_take(rng, concepts, 71) + _take(rng, problems, 26) + _take(rng, plans, 34) + _take(rng, crops, 40)
           + _take(rng, livestock, 30) + _take(rng, machines, 20) + _take(rng, pairs, 24) + _take(rng, chain, 24)
           + _take(rng, history, 24) + _FARM_ONEOFFS)
    return _decorate_finished(rng, out, _FARM_SUFFIX, 0.12) + _take(rng, writes, 12) + _FARM_TEXTS


# --- geology ---------------------------------------------------------------------------

_GEO_CONCEPTS = [
    "how a rock can turn into a completely different kind of rock over millions of years",
    "how igneous, sedimentary and metamorphic rocks differ", "how plate tectonics works",
    "why earthquakes happen along fault lines", "how a hotspot built the Hawaiian islands",
    "what magma is and where it comes from", "how earthquake magnitude is measured",
    "why some volcanoes explode while others ooze lava", "how the Himalayas were formed",
    "how a geode ends up hollow and full of crystals", "how geologists work out the age of a rock",
    "how bone turns into a fossil", "how stalactites and stalagmites grow", "how the Grand Canyon was carved",
    "what a supervolcano is", "how a seismograph records an earthquake",
    "how the idea of continental drift was accepted",
    "what the Mohs hardness scale is", "how diamonds form deep underground", "how amber preserves insects",
    "where sand comes from", "what makes a geyser erupt", "how glaciers carve U-shaped valleys",
    "how a river makes meanders and oxbow lakes", "what the Earth's mantle is made of",
    "how new sea floor is made at mid-ocean ridges", "why Iceland is slowly being pulled apart",
    "what an aftershock is", "how limestone forms from ancient sea creatures", "how coal formed from ancient forests",
    "why the Pacific is ringed by volcanoes", "how erosion turns a headland into arches and sea stacks",
    "what a mineral's streak colour tells you", "how obsidian forms", "how sinkholes appear so suddenly",
    "how the hexagonal columns at the Giant's Causeway formed", "how volcanologists watch for signs of an eruption",
    "what a fault actually is", "how a tsunami is triggered by an earthquake", "how gold ends up in veins of quartz",
]
_GEOLOGY_GEO_AUD = ["", ", in simple terms", " for a nine-year-old rock collector", " in a few sentences",
                 " with an everyday comparison", ", the way a guide on a geology field trip would"]
_ROCKS = [
    "granite", "basalt", "obsidian", "pumice", "limestone", "marble", "slate", "sandstone", "chalk", "quartz",
    "feldspar", "mica", "pyrite", "flint", "gneiss", "shale", "jasper", "agate", "malachite", "fluorite",
    "gypsum", "calcite", "hematite", "schist", "tuff", "conglomerate",
]
_ROCK_TEMPLATES = ["What is {x}, and how does it form?", "How can I recognise {x} when I'm out walking?",
                        "what is {x} used for", "Give me three fun facts about {x}."]
_GEMS = [
    "a ruby", "a sapphire", "an emerald", "an opal", "an amethyst", "a garnet", "a piece of jade",
    "a piece of turquoise", "a topaz", "a piece of lapis lazuli", "a moonstone", "a peridot", "an aquamarine",
    "a tiger's eye stone",
]
_GEM_TEMPLATES = ["How does {x} form in nature?", "What gives {x} its colour?",
                       "how can you tell if {x} is real or fake", "What makes {x} valuable?"]
_LANDMARKS = [
    "the Grand Canyon", "Uluru", "the Dolomites", "Yellowstone", "Mount Fuji", "the White Cliffs of Dover",
    "Ha Long Bay", "the stone pillars of Zhangjiajie", "the Cliffs of Moher", "the Jurassic Coast",
    "Mount St. Helens", "Krakatoa", "the San Andreas Fault", "the Great Rift Valley", "Thingvellir in Iceland",
    "the Burgess Shale", "the fairy chimneys of Cappadocia", "Mammoth Cave in Kentucky",
    "the travertine terraces of Pamukkale", "the Wave in Arizona", "the Drakensberg", "Mount Etna",
    "the Danakil Depression", "Kata Tjuta", "the Matterhorn",
]
_LANDMARK_TEMPLATES = ["How was {x} formed, geologically speaking?", "What's the geology behind {x}?",
                            "what makes {x} interesting to geologists",
                            "I'm visiting {x} soon. What should I look out for as someone who loves rocks?"]
_GEO_QUESTIONS = [
    "can scientists predict earthquakes", "is California going to fall into the sea one day",
    "could Yellowstone erupt in my lifetime", "are diamonds really made from coal",
    "do crystals have healing powers", "is the ground under my feet moving right now",
    "how fast do tectonic plates move", "are there still active volcanoes in Europe",
    "why are there fossils of sea creatures in the middle of deserts", "how old is the oldest rock ever found",
    "do earthquakes happen more in hot weather", "is it safe to live near a volcano",
    "is the Earth's core really as hot as the surface of the Sun",
    "could we drill all the way to the centre of the Earth",
    "why is gold sometimes found in rivers", "are dinosaur bones in museums actually bone or rock",
    "can animals sense earthquakes before they happen", "why does Japan have so many earthquakes",
    "will the continents ever join back together", "why do we find so few fossils of soft-bodied animals",
    "can an earthquake open up a crack big enough to swallow a person", "why does one beach in Hawaii have green sand",
    "where does the salt in salt mines come from", "why are mountains higher in some places than others",
]
_GEO_Q_TEMPLATES = ["{X}?", "{x}", "Straight answer, please: {x}?",
                         "My partner and I were arguing about this: {x}?"]
_FINDS = [
    "I found a rock on the beach with a perfect spiral pattern in it",
    "my son picked up a shiny gold-coloured rock from a stream", "I found a round rock that rattles when I shake it",
    "I found a flat stone with what looks like a leaf printed on it",
    "I found a heavy black stone in a field and a magnet sticks to it",
    "I found a grey rock full of sparkly flakes that peel off in thin layers",
    "I found a pebble with a white band running all the way round it",
    "I found a bullet-shaped fossil at the bottom of a cliff", "I found a light, bubbly rock that floats in water",
    "I found a piece of rock that looks like it has tiny cogs or discs in it",
    "I found a smooth, glassy black stone on a hike near an old volcano",
]
_FIND_TEMPLATES = ["{X}. What might it be?", "{X}. How can I work out what it is?", "{x}. what is it likely to be"]
_GEO_HOBBIES = [
    "start a rock collection", "go fossil hunting on a beach", "polish stones in a rock tumbler",
    "open a geode without smashing the crystals", "label and display a mineral collection",
    "find agates on a beach", "pan for gold in a river", "use a hand lens to identify minerals",
    "read a geological map", "identify fossils", "go meteorite hunting",
]
_GEO_HOBBY_TEMPLATES = ["How do I {x}?", "What do I need to {x}?",
                             "any tips for a beginner who wants to {x}"]
_LANDSCAPES = [
    "a valley with a flat bottom and steep sides", "layers of rock standing almost vertically in a cliff",
    "huge boulders sitting alone in the middle of a field", "a line of springs along the bottom of a hill",
    "a river full of round, smooth pebbles", "red sandstone cliffs with slanting lines inside each layer",
    "a hill with a perfectly flat top",
    "a beach of black sand", "wavy, folded layers of rock in a road cutting", "a small round lake in a crater",
    "a limestone pavement with deep cracks", "a waterfall with a deep pool and an overhang behind it",
    "a cliff with a dark band of coal running through it",
]
_LANDSCAPE_TEMPLATES = ["On a walk I saw {x}. What does that tell me about the area's history?",
                            "What could cause {x}?", "how would a geologist explain {x}"]
_GEO_WRITES = [
    "a short poem from the point of view of a pebble", "a museum label for a 200-million-year-old ammonite",
    "a story for kids about a volcano that was tired of erupting", "a one-page earthquake safety guide for a school",
    "a dramatic opening for a documentary about Krakatoa",
    "an Instagram caption for a photo of me holding a huge amethyst geode",
    "a short, fun quiz about rocks and minerals for ten-year-olds",
]
_GEO_WRITE_TEMPLATES = ["Write {x}.", "Could you write {x}?", "i need {x}"]
_GEOLOGY_GEO_ONEOFFS = [
    "Describe the journey of a grain of sand from a mountaintop to a beach, told by the grain itself.",
    "In a short table, compare igneous, sedimentary and metamorphic rocks: how they form, one example of each, "
    "and where I might see them.",
    "What should I do if an earthquake starts while I'm indoors?",
    "Why are there so many different colours of sand on different beaches?",
    "Is it legal to take rocks or fossils home from a beach or national park?",
    "How do scientists know what's inside the Earth if nobody has ever been there?",
    "what's the difference between a rock and a mineral",
    "Explain plate tectonics using only things you'd find in a kitchen.",
    "Give me a simple timeline of Earth's history from its formation to the first humans.",
    "I'm taking my kids to a cave tour. What questions could they ask the guide?",
    "Why are some caves full of beautiful formations and others completely bare?",
    "What was Pangaea, and how do we know it existed?",
    "How did Mary Anning change what people knew about fossils?",
    "How do volcanic eruptions affect the weather around the world?",
    "What causes the smell of sulphur near volcanoes and hot springs?",
    "Why is Iceland so full of volcanoes and hot springs while Norway has none?",
    "How were the Alps formed, and are they still rising?",
    "Pretend you're a tour guide at the Grand Canyon. Explain the layers of rock to a group of tourists.",
    "What's the best way to clean a muddy fossil without damaging it?",
    "Why are some mountains jagged and others smooth and rounded?",
    "What's the difference between lava and magma?",
    "How are caves mapped by cavers?",
    "What is a 'lost world' plateau like Mount Roraima, and how did it form?",
    "Why does the Dead Sea keep shrinking?",
    "How do gemstones get cut, and why are some shapes more expensive than others?",
    "How deep is the deepest hole humans have ever dug, and why did they stop?",
    "Which rocks would be best for building a dry stone wall, and why?",
    "Make a comparison table of granite, marble and quartz worktops: durability, care and price.",
    "What are the warning signs that a volcano might erupt soon?",
    "I've inherited my grandad's rock collection and none of it is labelled. How do I start identifying it?",
    "My seven-year-old is obsessed with rocks and fossils. How can I feed that interest without spending much?",
]
_GEO_TEXTS = [  # tasks on a short given text: never decorated
    "Simplify this museum sign for young children: \"This ammonite lived in a warm, shallow sea during the Jurassic "
    "period, approximately 180 million years ago.\"",
    "Summarise this for a ten-year-old: \"Basalt forms when lava cools quickly at the surface, so its crystals "
    "are tiny. Granite forms from magma that cools slowly deep underground, giving it large, visible crystals.\"",
    "Turn this field note into a tidy paragraph: \"cliff approx 20m, grey shale layers, lots of ammonites near "
    "base, some pyrite, layers tilt gently to the south, landslip on the east side\"",
    "Continue this story: \"When the ground stopped shaking, the river was running the wrong way.\"",
]
_GEO_SUFFIX = ["Keep it short.", "Explain it simply.", "A few sentences is plenty.",
                    "Please use examples I could see for myself."]


@_category("geology", "geology: rocks and minerals, volcanoes, earthquakes, plate tectonics, fossils, caves and "
                      "mountains, gemstones, rock collecting and reading the landscape")
def _gen_geology(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "Help me understand {x}{y}."), _GEO_CONCEPTS, _GEOLOGY_GEO_AUD)
    concepts += _fill(["On a museum trip my son asked me {x}. What's the answer?"], _GEO_CONCEPTS)
    rocks = _fill(_ROCK_TEMPLATES, _ROCKS)
    gems = _fill(_GEM_TEMPLATES, _GEMS)
    landmarks = _fill(_LANDMARK_TEMPLATES, _LANDMARKS)
    questions = _fill(_GEO_Q_TEMPLATES, _GEO_QUESTIONS)
    finds = _fill(_FIND_TEMPLATES, _FINDS)
    hobbies = _fill(_GEO_HOBBY_TEMPLATES, _GEO_HOBBIES)
    landscapes = _fill(_LANDSCAPE_TEMPLATES, _LANDSCAPES)
    writes = _fill(_GEO_WRITE_TEMPLATES, _GEO_WRITES)
    out = (_take(rng, concepts, 80) + _take(rng, rocks, 36) + _take(rng, gems, 24) + _take(rng, landmarks, 36)
           + _take(rng, questions, 40) + _take(rng, finds, 26) + _take(rng, hobbies, 20) + _take(rng, landscapes, 22)
           + _GEOLOGY_GEO_ONEOFFS)
    return _decorate_finished(rng, out, _GEO_SUFFIX, 0.12) + _take(rng, writes, 12) + _GEO_TEXTS


# --- chemistry -------------------------------------------------------------------------

_CHEM_CONCEPTS = [
    "why iron rusts but aluminium hardly seems to corrode", "how soap lifts grease off a dirty plate",
    "why you must never mix bleach with other cleaning products", "what the Maillard reaction is",
    "how baking powder makes a cake rise", "why a battery eventually goes flat", "what makes an acid an acid",
    "how the periodic table is arranged", "why noble gases hardly react with anything", "what an isotope is",
    "how ionic and covalent bonds differ", "what a mole means in chemistry", "how a catalyst speeds up a reaction",
    "why salt lowers the freezing point of water", "how descaler gets rid of limescale in a kettle",
    "what happens chemically when a candle burns", "how glow sticks make light", "how a hand warmer gets hot",
    "why water dissolves so many things", "what oxidation means", "what an exothermic reaction is",
    "how plastics are made from oil", "why silver goes black over time", "why copper roofs turn green",
    "how paper chromatography separates the colours in ink", "what a polymer is", "how electrolysis works",
    "what makes a reaction reversible", "what happens to sugar when it caramelises", "why oil and water don't mix",
    "how mayonnaise stays mixed even though it's mostly oil", "how pickling in vinegar preserves food",
    "why some elements are radioactive", "how a fire extinguisher puts out a fire", "what the pH scale measures",
    "why salt and ice together can freeze homemade ice cream", "what makes some reactions fizz",
    "how indicator paper changes colour", "how diamond and graphite can both be pure carbon",
    "how a lithium-ion battery charges and discharges",
]
_CHEM_AUD = ["", ", in simple terms", " for a high-school student", " in a short paragraph",
                  " with an everyday example", ", like an enthusiastic chemistry teacher would"]
_ELEMENTS = [
    "hydrogen", "helium", "carbon", "oxygen", "nitrogen", "sodium", "chlorine", "iron", "copper", "gold",
    "mercury", "lithium", "silicon", "neon", "calcium", "uranium", "aluminium", "titanium", "phosphorus",
    "iodine", "sulfur", "lead", "silver", "magnesium", "potassium", "argon", "tungsten", "zinc", "fluorine",
    "cobalt",
]
_ELEMENT_TEMPLATES = ["Tell me about the element {x}.", "What is {x} used for in everyday life?",
                           "where is {x} on the periodic table and what does that tell me about it",
                           "Give me three surprising facts about {x}."]
_CHEM_CALCS = [
    "Balance this equation: H2 + O2 → H2O.", "Balance this equation: CH4 + O2 → CO2 + H2O.",
    "Balance this equation: Fe + O2 → Fe2O3.", "Balance this equation: Al + O2 → Al2O3.",
    "Balance this equation: C3H8 + O2 → CO2 + H2O.", "What is the relative formula mass of CO2?",
    "What is the relative formula mass of calcium carbonate, CaCO3?", "How many moles are in 36 g of water?",
    "What mass of sodium chloride is 0.5 moles?",
    "What's the concentration in g/dm³ if 10 g of salt is dissolved to make 250 cm³ of solution?",
    "What is the percentage by mass of oxygen in water?",
    "How many grams of carbon dioxide are made when 12 g of carbon burns completely?",
]
_CHEM_CALC_TEMPLATES = ["{x}", "Homework help: {x}", "I'm stuck on this one. {x}", "{x} Show each step, please."]
_CHEM_REVISION = [
    "What's the difference between an element, a compound and a mixture?",
    "What are the products when hydrochloric acid reacts with sodium hydroxide?",
    "What is made when magnesium reacts with hydrochloric acid?",
    "Why do the group 1 metals get more reactive as you go down the group?",
    "What's the difference between an atom and an ion?", "What type of bonding is in sodium chloride, and why?",
    "Why does diamond have such a high melting point?", "What's the test for hydrogen gas?",
    "What's the test for carbon dioxide?", "Why does raising the temperature speed up a reaction?",
    "What happens to the particles in ice as it melts?", "Why are metals good conductors of electricity?",
    "What is a neutralisation reaction? Give an example.", "Why does a larger surface area make a reaction faster?",
    "What's the difference between a strong acid and a concentrated acid?",
    "Why do the halogens get less reactive as you go down group 7?",
    "How many protons, neutrons and electrons are in an atom of carbon-14?",
    "What's the electron configuration of sodium?",
]
_CHEM_REVISION_TEMPLATES = ["{x}", "Revision question: {x}", "{x} Answer the way a mark scheme would want."]
_CHEMISTRY_EXPERIMENTS = [
    "a baking soda volcano", "a red-cabbage pH indicator", "salt crystals on a string",
    "invisible ink from lemon juice",
    "a density tower in a jar", "a lava lamp from oil, water and a fizzy tablet", "plastic from warm milk and vinegar",
    "rainbow patterns from felt-tip pens on coffee filters", "raisins that dance in fizzy water",
    "a 'naked' egg with vinegar", "rainbow swirls in milk with food colouring and washing-up liquid", "a lemon battery",
    "a balloon that blows itself up with baking soda and vinegar",
]
_CHEMISTRY_EXPERIMENT_TEMPLATES = ["How do we make {x} at home?", "What's the chemistry behind {x}?",
                              "we're making {x} this weekend. what should the kids notice",
                              "Write kid-friendly step-by-step instructions for {x}, with a short safety note."]
_CHEM_HOME = [
    "why does vinegar get rid of limescale", "why does bicarbonate of soda get rid of bad smells in the fridge",
    "why does bleach take the colour out of clothes",
    "what's the difference between biological and non-biological washing powder",
    "why does hot water clean greasy pans better than cold", "does lemon juice really lift rust stains",
    "why does meat brown in a hot pan but go grey in a crowded one", "why do eggs go solid when you cook them",
    "why does a cut avocado go brown", "why does milk curdle when you add lemon juice",
    "why does a pinch of baking soda make onions brown faster", "why do my silver earrings turn my skin green",
    "why does my cast-iron pan rust if I leave it wet", "why does a fizzy drink go flat faster when it's warm",
    "why does salt make ice on the pavement melt", "why does my shower curtain get pink and black marks",
    "why does toothpaste make orange juice taste awful", "why do some steam irons say to use distilled water",
]
_CHEM_HOME_TEMPLATES = ["{X}?", "{x}", "Chemistry question from around the house: {x}?"]
_CHEMISTS = [
    "Marie Curie", "Dmitri Mendeleev", "Antoine Lavoisier", "Robert Boyle", "Humphry Davy", "Michael Faraday",
    "Dorothy Hodgkin", "Linus Pauling", "Alfred Nobel", "Fritz Haber", "John Dalton", "Percy Julian",
    "Alice Ball", "Stephanie Kwolek", "Jabir ibn Hayyan", "Amedeo Avogadro", "Ernest Rutherford",
    "Joseph Priestley", "Svante Arrhenius", "Rosalind Franklin", "Marie-Anne Paulze Lavoisier", "Carl Bosch",
]
_CHEMIST_TEMPLATES = ["What did {x} contribute to chemistry?", "What is {x} best remembered for?",
                           "tell me the story of {x} in a few sentences"]
_CHEM_PAIRS = [
    ("an acid", "an alkali"), ("a physical change", "a chemical change"), ("a mixture", "a compound"),
    ("organic chemistry", "inorganic chemistry"), ("baking soda", "washing soda"), ("an atom", "a molecule"),
    ("an endothermic reaction", "an exothermic reaction"), ("a strong acid", "a weak acid"),
    ("dissolving", "melting"), ("evaporation", "boiling"), ("a metal", "a non-metal"), ("a solution", "a suspension"),
]
_CHEM_PAIR_TEMPLATES = ["What's the difference between {x} and {y}?",
                             "{X} versus {y}: what's the key difference, with one example of each?",
                             "explain {x} vs {y} simply"]
_CHEM_WRITES = [
    "a rap about the first 20 elements", "a short story about an oxygen atom's adventure through a campfire",
    "a silly mnemonic for the first ten elements", "a lab safety poster for a secondary school",
    "a ten-question quiz on acids and alkalis, with answers", "a short poem about rust",
    "a one-minute science-show script explaining why popcorn pops",
]
_CHEM_WRITE_TEMPLATES = ["Write {x}.", "Can you write {x}?", "write me {x}"]
_CHEM_ONEOFFS = [
    "Give me a two-week revision plan for a chemistry exam on atomic structure, bonding and rates of reaction.",
    "In under 80 words, explain what a chemical reaction is, then give three examples from breakfast time.",
    "Is 'chemical-free' on a product label actually meaningful?",
    "Why do some cleaning products say never to mix them with anything else?",
    "How does baking soda differ from baking powder in a recipe, chemically?",
    "What's actually happening when bread turns into toast?",
    "Explain why the periodic table has that odd shape with two rows floating at the bottom.",
    "why do batteries leak",
    "What makes superglue stick so fast?",
    "Why do some metals, like sodium, react so violently with water?",
    "How do chemists make new medicines, roughly, from idea to pill?",
    "Why does a match light when you strike it?",
    "What's the chemistry of a sourdough starter?",
    "My teenager says chemistry is pointless. Give me five everyday things that only exist because of chemistry.",
    "What's the difference between 'natural' and 'synthetic' vanilla flavour, chemically?",
    "How does sunscreen protect skin, chemically speaking?",
    "How did Mendeleev predict elements that hadn't been discovered yet?",
    "Why is water called the universal solvent, and is that really true?",
    "What's an easy way to remember the difference between cations and anions?",
    "Pretend you're Marie Curie explaining your work on radioactivity to a curious reporter in 1911.",
    "Why do onions make me cry, and what's the chemistry behind the tricks to stop it?",
    "How do fireworks get their colours? Which metal makes which colour?",
    "What's the difference between a chemist and a chemical engineer?",
    "Why does a new car have that smell?",
    "what are the most common elements in the human body",
    "Why does the Statue of Liberty look green when it's made of copper?",
    "How does a breathalyser detect alcohol, in simple terms?",
    "I'm a parent helping with chemistry homework I don't remember. How do I work out the formula of "
    "magnesium oxide from the charges on the ions?",
    "What's the difference between hard water and soft water, and why does it matter for my kettle?",
]
_CHEM_TEXTS = [  # tasks on a short given text: never decorated
    "Check my answer and explain any mistakes: \"2H2 + O2 → 2H2O is balanced because there are 2 hydrogens and 2 "
    "oxygens on each side.\"",
    "Summarise this for a 12-year-old: \"Rusting is an oxidation reaction in which iron reacts with oxygen and "
    "water to form hydrated iron(III) oxide. It can be prevented by painting, oiling or galvanising the iron.\"",
    "Rewrite this lab method as clear numbered steps: \"add 25 cm3 of acid to the flask then add the magnesium "
    "ribbon and start the timer, record gas volume every 30 s until it stops\"",
    "Turn this into three multiple-choice questions: \"Acids have a pH below 7, alkalis have a pH above 7, and "
    "pure water is neutral at pH 7. Universal indicator turns red in strong acids and purple in strong "
    "alkalis.\"",
]
_CHEM_SUFFIX = ["Keep it short.", "Keep it under 150 words.", "Plain English, please.",
                     "I'm not a scientist, so keep it simple."]


@_category("chemistry", "chemistry: everyday and kitchen chemistry, cleaning products, rust and batteries, the "
                        "periodic table, acids and bases, safe home experiments, famous chemists and homework "
                        "questions")
def _gen_chemistry(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "Can you break down {x}{y}?"), _CHEM_CONCEPTS, _CHEM_AUD)
    concepts += _fill(["My teacher went over {x} too fast. Can you go through it again?"], _CHEM_CONCEPTS)
    elements = _fill(_ELEMENT_TEMPLATES, _ELEMENTS)
    calcs = _fill(_CHEM_CALC_TEMPLATES, _CHEM_CALCS)
    revision = _fill(_CHEM_REVISION_TEMPLATES, _CHEM_REVISION)
    experiments = _fill(_CHEMISTRY_EXPERIMENT_TEMPLATES, _CHEMISTRY_EXPERIMENTS)
    home = _fill(_CHEM_HOME_TEMPLATES, _CHEM_HOME)
    chemists = _fill(_CHEMIST_TEMPLATES, _CHEMISTS)
    pairs = _fill(_CHEM_PAIR_TEMPLATES, _CHEM_PAIRS)
    writes = _fill(_CHEM_WRITE_TEMPLATES, _CHEM_WRITES)
    out = (_take(rng, concepts, 72) + _take(rng, elements, 40) + _take(rng, home, 36) + _take(rng, experiments, 30)
           + _take(rng, chemists, 30) + _take(rng, pairs, 22) + _CHEM_ONEOFFS)
    homework = _take(rng, calcs, 28) + _take(rng, revision, 28)
    return (_decorate_finished(rng, out, _CHEM_SUFFIX, 0.12) + homework + _take(rng, writes, 12)
            + _CHEM_TEXTS)


# --- energy ----------------------------------------------------------------------------

_ENERGY_CONCEPTS = [
    "how electricity gets from a power station to the socket in my wall", "what a kilowatt-hour is",
    "the difference between kW and kWh", "how a solar panel turns sunlight into electricity",
    "how a heat pump can give out more heat than the electricity it uses", "how a gas-fired power station works",
    "how a nuclear power station makes electricity", "how a wind turbine turns wind into electricity",
    "how pumped-storage hydro works like a giant battery",
    "why the grid has to match supply and demand every second", "what causes a blackout",
    "why electricity can cost more at some times of day", "what a smart meter actually does",
    "what the inverter in a solar system does", "what 'baseload' power means",
    "what the kW rating on an EV charger means", "why electric cars lose range in cold weather",
    "what grid frequency is and why it matters", "how a home battery works alongside solar panels",
    "how geothermal energy works", "what green hydrogen is", "what the standing charge on an energy bill is",
    "how insulation keeps a house warm", "what an energy efficiency rating on a house means",
    "how a combi boiler works", "what a circuit breaker does", "the difference between AC and DC electricity",
    "why power lines carry electricity at such high voltages", "how tidal power works", "what carbon capture is",
    "what a capacity factor is for a power station", "what 'peak demand' means for the grid",
    "why wind and solar need storage or backup", "how a biomass power station works", "what 'net zero' means",
    "how calories and kilowatt-hours compare as units of energy", "what standby power is",
    "why some countries get most of their electricity from hydro", "how an electricity network restarts after a "
    "total blackout", "what a transformer does",
]
_ENERGY_AUD = ["", ", in simple terms", " for a homeowner with no technical background", " in a few sentences",
                    " with a real-life example", ", the way a friendly energy adviser would"]
_APPLIANCES = [
    "a kettle", "a tumble dryer", "an electric oven", "a fridge-freezer", "a washing machine", "a dishwasher",
    "an electric shower", "a plug-in oil heater", "a gaming PC", "a TV left on standby", "an air fryer",
    "a dehumidifier", "an electric blanket", "a slow cooker", "a hot tub", "an immersion heater",
    "a desk fan", "a portable air conditioner", "a chest freezer in the garage", "a fish tank heater",
]
_APPLIANCE_TEMPLATES = ["Roughly how much does it cost to run {x}?",
                             "How can I work out how much electricity {x} uses?",
                             "is {x} a big drain on my electricity bill"]
_ENERGY_PROBLEMS = [
    "our electricity bill doubled this winter", "I live in a draughty Victorian terrace that's impossible to heat",
    "I rent a flat with electric storage heaters and I don't understand how to use them",
    "our gas boiler is 18 years old and the engineer says it's on its last legs",
    "I work from home and the heating is on all day", "upstairs is always freezing and downstairs is roasting",
    "our flat gets condensation on every window each winter",
    "I live alone in a three-bedroom house and heating it all feels wasteful",
    "our prepayment meter keeps running out at the worst times",
    "my energy supplier's estimated bills are way too high",
    "our electric radiators barely take the chill off the room",
]
_ENERGY_PROBLEM_TEMPLATES = ["{X}. What should I do?", "{x}. what can i do about it",
                                  "{X}. Where would you start?"]
_ENERGY_PLANS = [
    "I'm thinking of putting solar panels on my south-facing roof",
    "I've just bought my first electric car and I have a driveway",
    "I've bought an electric car but I live in a flat with no off-street parking",
    "I've had a smart meter fitted and want to actually use the data",
    "we have solar panels but the electricity we export earns us almost nothing",
    "my fixed energy tariff ends next month", "I'm thinking of switching to a time-of-use tariff",
    "I'm considering a home battery to go with our solar panels",
    "I'm replacing my gas boiler and wondering about a heat pump", "we're about to buy a house with an F energy rating",
    "I want to take my electric car on a 500 km road trip", "our village is considering a community wind turbine",
]
_ENERGY_PLAN_TEMPLATES = ["{X}. What should I know?", "{X}. Where do I start?", "{x}. any advice",
                               "{X}. What questions should I be asking?"]
_ENERGY_QUESTIONS = [
    "is it cheaper to leave the heating on low all day or only put it on when I need it",
    "does switching things off at the wall really save money",
    "is it cheaper to boil water in a kettle or on a gas hob",
    "do LED bulbs really make a difference to my bill", "is it cheaper to run the dishwasher at night",
    "does turning off radiators in rooms I don't use save money", "is an air fryer cheaper to run than the oven",
    "do solar panels work on cloudy days", "do solar panels still make electricity in winter",
    "how long do solar panels last", "do heat pumps work when it's below freezing outside",
    "are electric cars really greener than petrol cars once you count the battery",
    "is it bad to charge my electric car to 100% every night", "why does electricity cost more per unit than gas",
    "will the grid cope if everyone switches to electric cars", "is nuclear power safe",
    "why can't we just run everything on wind and solar", "what happens to old wind turbine blades",
    "why do energy companies ask us to use less at peak times", "is washing clothes at 30°C really good enough",
    "does opening the oven door after cooking help heat the kitchen", "why do my lights flicker when the kettle's on",
    "is it worth unplugging my phone charger when it's not in use", "why is my energy bill higher in January",
]
_ENERGY_Q_TEMPLATES = ["{X}?", "{x}", "Quick sanity check: {x}?", "Be honest with me: {x}?"]
_SOURCES = [
    "coal", "natural gas", "nuclear", "onshore wind", "offshore wind", "solar", "hydroelectric", "geothermal",
    "tidal", "biomass", "wave", "rooftop solar",
]
_SOURCE_TEMPLATES = ["What are the pros and cons of {x} power?",
                          "How much of the world's electricity comes from {x} power, and is that changing?",
                          "what's the future of {x} power",
                          "Explain {x} power to a 12-year-old, including one downside."]
_ENERGY_PAIRS = [
    ("a heat pump", "a new gas boiler"), ("a smart thermostat", "a simple timer"),
    ("a fixed tariff", "a variable tariff"),
    ("an electric car", "a plug-in hybrid"), ("charging at home", "using public rapid chargers"),
    ("a 7 kW home charger", "a three-pin plug"), ("wind power", "nuclear power"),
    ("loft insulation", "double glazing"), ("an oil-filled radiator", "a fan heater"),
    ("a combi boiler", "a system boiler with a hot water tank"),
    ("solar panels for electricity", "solar thermal panels"),
    ("an air-source heat pump", "a ground-source heat pump"),
]
_ENERGY_PAIR_TEMPLATES = ["What's the difference between {x} and {y}?", "{X} or {y}? Help me weigh them up.",
                               "pros and cons of {x} vs {y}"]
_ENERGY_WRITES = [
    "a short guide for my teenagers on saving energy at home", "a polite letter to my landlord asking about insulation",
    "a poem about a wind farm at sunset", "a newsletter piece explaining a new solar farm planned near our village",
    "a checklist for getting a house ready for winter",
    "a kids' story about a journey from a wind turbine to a toaster",
    "a short script for a school assembly about where electricity comes from",
]
_ENERGY_WRITE_TEMPLATES = ["Write {x}.", "Can you write {x}?", "write me {x}"]
_ENERGY_ONEOFFS = [
    "Make a table of five home upgrades, like loft insulation or a heat pump, with rough cost, yearly savings and "
    "payback time.",
    "In three short paragraphs, explain how the grid works, why it needs balancing, and what I can do to help at "
    "peak times.",
    "My heater is 2 kW and electricity costs 30p per kWh. How much does it cost to run it for 5 hours?",
    "Our solar panels are rated at 4 kW. Roughly how much electricity could they make on a sunny summer day?",
    "If my EV has a 60 kWh battery and a 7 kW charger, how long will it take to charge from empty?",
    "Explain the parts of my energy bill: unit rate, standing charge and estimated readings.",
    "What was the 'war of the currents' between Edison and Westinghouse about?",
    "How did people light and heat their homes before mains electricity?",
    "What was the world's first public power station, and what did it power?",
    "Why do some countries use 230 volts and others 120?",
    "What happens at a power station when millions of people put the kettle on at half-time in a big match?",
    "why does my phone charger get warm",
    "I'm a landlord. What energy improvements would make the biggest difference for my tenants' bills?",
    "Pretend you're an energy adviser visiting my home. What would you check first, room by room?",
    "Is it true that a heat pump needs the radiators to be bigger?",
    "What's the best way to heat one room cheaply when I'm working from home?",
    "How much does the way I drive affect an electric car's range?",
    "Give me ten energy-saving habits for a family that don't cost anything.",
    "Why do wind turbines sometimes stand still even when it's windy?",
    "How do countries share electricity with each other through undersea cables?",
    "What does a power cut do to the food in my freezer, and how long is it safe if I keep the door shut?",
    "Why are electricity pylons shaped the way they are?",
    "How do solar panels on a roof keep working if one panel is shaded?",
    "Compare the running costs of a gas boiler and a heat pump for a typical three-bedroom house, roughly.",
    "What's 'vehicle-to-grid' charging, and could my car really power my house?",
    "How does a dam decide how much water to let through to make electricity?",
    "How do I read my electricity meter? It has two rows of numbers.",
    "what is a power bank's mAh and how many phone charges will i get",
    "Why did so many countries move away from coal, and why do some still burn a lot of it?",
]
_ENERGY_TEXTS = [  # tasks on a short given text: never decorated
    "Turn these notes into a short, friendly email to my housemates: \"heating bill £240 this qtr, up from £150, pls "
    "close windows when heating's on, radiator in hall stays off\"",
    "Summarise this in plain English: \"Your Direct Debit has been reviewed. Based on your estimated annual "
    "consumption of 2,900 kWh, your monthly payment will increase from £78 to £96 from 1 November.\"",
    "Rewrite this for a community leaflet so it's friendly and clear: \"The scheme will install 2.5 MW of "
    "ground-mounted photovoltaic capacity with grid connection via the existing 33 kV substation.\"",
    "Continue this story: \"The night the whole city went dark, my grandmother was the only one who wasn't "
    "worried.\"",
]
_ENERGY_SUFFIX = ["Keep it short.", "Bullet points, please.", "Plain English, please.",
                       "Explain it without jargon."]
_ENERGY_NUM_SUFFIX = ["Rough numbers are fine.", "Please show how you'd work it out.",
                           "Assume electricity costs about 25p per kWh."]


@_category("energy", "energy: electricity at home, bills and saving energy, solar panels, heat pumps, batteries and "
                     "EV charging, the grid and power stations, renewables and fossil fuels")
def _gen_energy(rng: random.Random) -> list[str]:
    concepts = _fill_cross(("Explain {x}{y}.", "Can you tell me {x}{y}?"), _ENERGY_CONCEPTS, _ENERGY_AUD)
    concepts += _fill(["Someone at work was talking about {x} and I just nodded along. Can you explain?"],
                      _ENERGY_CONCEPTS)
    appliances = _fill(_APPLIANCE_TEMPLATES, _APPLIANCES)
    problems = _fill(_ENERGY_PROBLEM_TEMPLATES, _ENERGY_PROBLEMS)
    plans = _fill(_ENERGY_PLAN_TEMPLATES, _ENERGY_PLANS)
    questions = _fill(_ENERGY_Q_TEMPLATES, _ENERGY_QUESTIONS)
    sources = _fill(_SOURCE_TEMPLATES, _SOURCES)
    pairs = _fill(_ENERGY_PAIR_TEMPLATES, _ENERGY_PAIRS)
    writes = _fill(_ENERGY_WRITE_TEMPLATES, _ENERGY_WRITES)
    numbers = _decorate_finished(rng, _take(rng, appliances, 32), _ENERGY_NUM_SUFFIX, 0.25)
    out = (_take(rng, concepts, 84) + _take(rng, problems, 26) + _take(rng, plans, 34) + _take(rng, questions, 48)
           + _take(rng, sources, 32) + _take(rng, pairs, 26) + _ENERGY_ONEOFFS)
    return (numbers + _decorate_finished(rng, out, _ENERGY_SUFFIX, 0.12) + _take(rng, writes, 12)
            + _ENERGY_TEXTS)


# ---------------------------------------------------------------------------------------
# Etiquette, film, books, writing, drinks, social media: manners and social norms at home, at work and abroad (etiquette),
# films and TV, how they are made and how to talk about them (film), reading, classic books
# and literature (books), the craft of fiction and non-fiction writing (writing), coffee, tea
# and other everyday non-alcoholic drinks (drinks), and social media and online life
# (socialmedia).
# ---------------------------------------------------------------------------------------

# --- etiquette -------------------------------------------------------------------------

_ETQ_COUNTRIES = [
    "Japan", "South Korea", "China", "India", "France", "Germany", "Italy", "Spain", "Brazil", "Mexico", "Morocco",
    "Egypt", "Turkey", "Thailand", "Vietnam", "Indonesia", "the United Arab Emirates", "Saudi Arabia", "Russia",
    "Poland", "Sweden", "Finland", "the Netherlands", "Greece", "Argentina", "Nigeria", "Kenya", "Ethiopia",
    "Israel", "the Philippines", "Australia", "Ireland", "Portugal", "Switzerland", "Peru", "Singapore",
    "Malaysia", "Iran", "the United States", "the UK",
]
_ETQ_COUNTRY_TEMPLATES = [
    "I'm visiting {x} for the first time. What manners or customs should I know about?",
    "What etiquette mistakes do tourists often make in {x}?", "How do people usually greet each other in {x}?",
    "what are table manners like in {x}", "Is tipping expected in {x}? If so, roughly how much?",
    "I've been invited to dinner at a family's home in {x}. What should I bring, and how should I behave?",
    "My company is sending me to {x} for meetings. What workplace customs should I be aware of?",
    "Give me five do's and don'ts for a visitor to {x}.",
    "What gestures might be rude in {x} even though they're fine elsewhere?",
]
_ETQ_SITUATIONS = [
    "my coworker keeps replying-all to company-wide emails with just 'thanks'",
    "a friend invited me to her wedding but not my partner of three years",
    "I've forgotten the name of someone I've now met four times",
    "my neighbour keeps parking across the end of my driveway",
    "my in-laws turn up without warning almost every Sunday",
    "a guest brought their dog to my dinner party without asking",
    "a friend always orders the most expensive dish and then wants to split the bill evenly",
    "someone gave me a gift I really dislike and keeps asking if I'm using it",
    "a man at the gym keeps giving me advice I didn't ask for",
    "the parents' group chat for my son's class sends messages at midnight",
    "I've been invited to a baby shower for someone I barely know",
    "a friend asked me to be a bridesmaid and I honestly can't afford it",
    "my flatmate's boyfriend basically lives with us now but doesn't pay anything",
    "a relative keeps asking when I'm going to have kids",
    "someone is sitting in the train seat I reserved",
    "a colleague keeps calling me by a nickname I don't like",
    "I turned up to a party in jeans and everyone else is dressed up",
    "a friend posted an unflattering photo of me and tagged me",
    "I waved back at someone who was actually waving at the person behind me",
    "my date spent most of dinner looking at their phone",
    "a coworker microwaves fish in the office kitchen every day",
    "my sister is bringing her kids to a wedding that clearly says no children",
    "I wasn't invited to a friend's birthday and then saw all the photos",
    "I accidentally called my manager 'mum' in a meeting",
    "the people behind me at the cinema talk through the whole film",
    "my host served a meat dish and I'm vegetarian",
    "I'm being asked to chip in for a leaving gift for someone I've never met",
    "a friend asked me to review her new café online and I didn't enjoy it",
    "I was copied into an email thread where two colleagues are openly arguing",
    "a neighbour borrowed my ladder in March and still hasn't returned it",
    "my friend brings up her ex in every single conversation",
    "I sent a message complaining about my boss to my boss by mistake",
    "my partner's parents expect us at every holiday and mine feel left out",
    "someone at a dinner keeps making jokes at my expense",
    "I said I'd go to a party and now I really don't want to",
    "my new colleague hugs everyone and I'm not a hugger",
]
_ETQ_SITUATION_TEMPLATES = [
    "{X}. How do I handle this politely?", "{X}. What's the least awkward thing to do?",
    "{X}. Am I overthinking it, or should I say something?", "ok so {x}. what do i do",
    "{X}. What would good manners say here?", "{X}. Give me a couple of things I could actually say.",
]
_ETQ_EVENTS = [
    "a wedding", "a baby shower", "a housewarming party", "a retirement party", "a christening", "a bar mitzvah",
    "an engagement party", "a graduation party", "a five-year-old's birthday party",
    "my grandparents' golden wedding anniversary", "a coworker's leaving party", "a Hindu wedding",
    "a Chinese wedding banquet", "a Jewish wedding", "a friend's 40th birthday dinner",
    "Christmas dinner at my partner's parents' house", "a dinner party at my boss's house", "a first communion",
    "a Nigerian wedding", "a quinceañera", "a Korean first-birthday party",
]
_ETQ_EVENT_TEMPLATES = [
    "What's a good gift for {x}, and how much is it normal to spend?",
    "What should I wear to {x}? I never know how dressy to go.",
    "I've been invited to {x}. What are the unwritten rules for guests?",
    "Write a short, warm card message to go with my gift for {x}.",
    "what's the polite thing to do if i can't make it to {x}",
]
_ETQ_ACTS = [
    "wear headphones at my desk all day", "eat lunch during a video call", "leave a group chat without saying anything",
    "reply to a long message with just a thumbs-up emoji", "keep my camera off in team meetings",
    "send work emails late at night", "ask for a doggy bag at a nice restaurant",
    "turn down a second helping at my mother-in-law's", "take the last slice of pizza without asking",
    "check my texts during a film at the cinema", "decline a LinkedIn request from a coworker",
    "mute a friend's stories on Instagram", "ask guests to chip in for food at my party",
    "take a phone call while I'm at the checkout", "skip a coworker's leaving party",
    "ask someone what a present cost so I can return it", "wait until after the party to open presents",
    "eat the last biscuit in the office tin", "call someone without texting first",
    "ask a pregnant friend if I can touch her bump", "correct someone's grammar in a group chat",
    "wear a hat indoors", "talk about salaries with coworkers", "give a gift card instead of a real present",
    "take photos during a wedding ceremony", "decline a dinner invitation without giving a reason",
    "leave a party without saying goodbye", "eat a hot meal on a crowded train",
    "arrive exactly on time to a house party", "ask guests to bring a dish to my dinner party",
    "cancel plans on the day because I'm tired", "send a thank-you email instead of a handwritten card",
    "bring my baby to a friend's wedding without asking", "ask a friend to take their shoes off at my door",
    "recline my seat on a short flight", "bring my own snacks to someone else's party",
]
_ETQ_ACT_TEMPLATES = [
    "Is it rude to {x}?", "is it bad manners to {x}", "Be honest: would people think less of me if I {x}?",
    "Is it ever OK to {x}? When, and how?", "My partner and I argue about this: is it acceptable to {x}? Settle it.",
]
_ETQ_QS = [
    "What's the correct order to use the cutlery at a formal dinner with lots of forks?",
    "Where do my bread roll and napkin go at a formal dinner?",
    "Is it rude to start eating before everyone has been served?",
    "What do I do with an olive stone or a fish bone at a nice restaurant?",
    "how do you eat spaghetti politely without it going everywhere",
    "Which way should dishes be passed around the table, and does it matter?",
    "What's good etiquette with chopsticks? What should I avoid doing?",
    "When is it polite to eat with your hands, and when isn't it?",
    "Explain the difference between the American and Continental ways of holding a knife and fork.",
    "Why is tipping in US restaurants so much higher than in most of Europe?",
    "Who should I tip at a hotel, and roughly how much?",
    "Do people tip taxi drivers, delivery drivers and baristas? What's normal?",
    "Is it rude not to tip if the service was genuinely bad?",
    "What's the etiquette for tipping the guide on a 'free' walking tour?",
    "Should I work out a tip on the bill before or after tax?",
    "How quickly should I reply to a wedding invitation, and what if I'm not sure yet?",
    "Is cash an acceptable wedding gift, and how do I present it nicely?",
    "Can I wear a white patterned dress to a wedding, or is any white off-limits?",
    "We're having a child-free wedding. How do we word that on the invitation without offending anyone?",
    "What should I write in a sympathy card for a coworker whose father died?",
    "What do I say to the family at a funeral when I didn't know the person who died very well?",
    "Is it appropriate to bring children to a funeral?",
    "What colours are appropriate at funerals in different cultures? I know it isn't always black.",
    "A friend lost her mum a month ago. Is it OK to bring it up, or should I wait for her to?",
    "What's the kind way to behave around a colleague who's going through a divorce?",
    "How should I sign off a work email to someone I've never met?",
    "Is 'Hey' too casual to open an email to a new client?", "When is it actually OK to use reply-all?",
    "How long should I wait before chasing someone who hasn't replied to my email?",
    "Is it unprofessional to use emojis in work chats?",
    "What's good etiquette for video calls: cameras, muting, eating, backgrounds?",
    "What's the polite way to leave a meeting that's running over?",
    "How do I tell a coworker their perfume is too strong without hurting their feelings?",
    "what's the etiquette for the office fridge and microwave",
    "Should I bring cake into the office on my birthday, or is that old-fashioned?",
    "Is it rude to take a phone call on speaker in a public place?", "What are the unwritten rules of group chats?",
    "Is it rude to leave someone on read?", "How quickly should I reply to a friend's text before it seems rude?",
    "Do people find voice notes annoying, or are they fine instead of texts?",
    "Why do some people now think phoning without texting first is rude?",
    "What's the etiquette for taking photos of other people's children at a school event?",
    "Write a short guide to being a good houseguest for a week.",
    "What should I do if I break something at someone else's house?",
    "How do I politely let houseguests know it's time for bed?",
    "How do I tell dinner hosts about my food allergies without seeming fussy?",
    "My friend arrives 45 minutes late to everything. How do I bring it up kindly?",
    "How do people exchange business cards in Japan, and why does it matter?",
    "Why is it considered rude to show the soles of your feet in some countries?",
    "Are there countries where arriving exactly on time to a party is actually a bit odd?",
    "Role-play an etiquette coach. I'll describe situations and you tell me what a gracious person would do. "
    "First one: I got two identical presents at my birthday party.",
    "Rewrite this so it sounds polite instead of passive-aggressive: 'As per my last email, I already sent you "
    "the file. Please check before asking again.'",
    "Rewrite this text to my neighbour so it's friendly but clear: 'Your music was way too loud last night AGAIN. "
    "Some of us work.'",
    "Write a short, funny etiquette guide for a big family holiday dinner, with five rules.",
    "Write a thank-you note to my aunt for a knitted jumper I'll never wear. Sincere, but no lies.",
    "List ten small courtesies that make a big difference in everyday life.",
    "Do people still appreciate handwritten thank-you notes, or is that a dying custom?",
    "Bows, cheek kisses, handshakes: how do greetings differ around the world?",
    "why do we say 'bless you' when someone sneezes",
    "Should I hold a door for someone who's still quite far behind me?",
    "How do I politely decline food I don't want when someone has cooked for me?",
    "My 8-year-old interrupts adults constantly. How do I teach basic conversation manners?",
    "What table manners can I realistically expect from a 5-year-old?",
    "Who gets the armrest in the middle seat on a plane or train?",
    "Is it fine to stay quiet at the hairdresser, or do they expect small talk?",
    "What are some etiquette rules that have changed a lot in the last thirty years?",
]
_ETQ_SUFFIX = ["Keep it short.", "A short answer is fine.", "A few bullet points is fine.",
                    "I'm in the UK, if that matters.", "I'm in the US, if that matters."]


@_category("etiquette", "manners and social norms: table manners, gifts, weddings and funerals, tipping, workplace "
                        "and email etiquette, customs abroad, awkward situations, phone and online manners")
def _gen_etiquette(rng: random.Random) -> list[str]:
    countries = _take(rng, _fill(_ETQ_COUNTRY_TEMPLATES, _ETQ_COUNTRIES), 80)
    situations = _take(rng, _fill(_ETQ_SITUATION_TEMPLATES, _ETQ_SITUATIONS), 80)
    events = _take(rng, _fill(_ETQ_EVENT_TEMPLATES, _ETQ_EVENTS), 45)
    acts = _take(rng, _fill(_ETQ_ACT_TEMPLATES, _ETQ_ACTS), 60)
    out = countries + situations + events + acts + _ETQ_QS
    return _decorate_questions(rng, out, _ETQ_SUFFIX, 0.12)


# --- film ------------------------------------------------------------------------------

_FILM_CLASSICS = [
    "Casablanca", "The Godfather", "Psycho", "Jaws", "Back to the Future", "The Shawshank Redemption", "Titanic",
    "Jurassic Park", "The Wizard of Oz", "Star Wars: A New Hope", "E.T. the Extra-Terrestrial", "Citizen Kane",
    "Singin' in the Rain", "2001: A Space Odyssey", "The Matrix", "Toy Story", "Spirited Away", "Seven Samurai",
    "Some Like It Hot", "Rear Window", "Raiders of the Lost Ark", "The Sound of Music", "It's a Wonderful Life",
    "Groundhog Day", "Forrest Gump", "The Silence of the Lambs", "Alien", "Blade Runner", "The Lion King",
    "Finding Nemo", "Inception", "Parasite", "Apollo 13", "Lawrence of Arabia", "The Princess Bride",
    "Ghostbusters", "The Truman Show", "Up", "Bicycle Thieves", "Amélie", "Rocky", "The Dark Knight",
    "The Grand Budapest Hotel", "Mad Max: Fury Road", "Get Out", "Roman Holiday", "Modern Times", "My Neighbour Totoro",
]
_FILM_CLASSIC_TEMPLATES = [
    "Why is {x} so highly regarded, and does it hold up?", "What big ideas is {x} really about, underneath the plot?",
    "Give me a spoiler-free pitch for {x} to convince my friend to watch it.",
    "Spoilers are fine: how does {x} end, and why does the ending work?", "what makes {x} so rewatchable",
    "Write a 150-word review of {x} as if it had just come out.",
    "If I liked {x}, what three films should I watch next?", "Which scene in {x} is the most famous, and why?",
    "Summarise the plot of {x} in five sentences.",
]
_FILM_DIRECTORS = [
    "Alfred Hitchcock", "Steven Spielberg", "Akira Kurosawa", "Stanley Kubrick", "Hayao Miyazaki", "Greta Gerwig",
    "Christopher Nolan", "Martin Scorsese", "Agnès Varda", "Wes Anderson", "Charlie Chaplin", "Billy Wilder",
    "Spike Lee", "Ingmar Bergman", "Federico Fellini", "Jane Campion", "Bong Joon-ho", "Kathryn Bigelow",
    "Orson Welles", "Satyajit Ray", "Guillermo del Toro", "Ridley Scott", "Sofia Coppola", "Pedro Almodóvar",
    "Jordan Peele", "Ang Lee", "Francis Ford Coppola", "Tim Burton", "James Cameron", "Denis Villeneuve",
    "Wong Kar-wai", "Buster Keaton", "Sergio Leone", "Nora Ephron", "Peter Jackson",
]
_FILM_DIRECTOR_TEMPLATES = [
    "What is {x} best known for as a director?", "Where should a beginner start with the films of {x}?",
    "recommend me three films by {x} and tell me why", "What can a new filmmaker learn from watching {x}'s work?",
    "Describe the style of {x} to someone who's never seen one of their films.",
    "What makes a film feel like it was made by {x}?",
]
_FILM_TECHNIQUES = [
    "a tracking shot", "the Kuleshov effect", "a jump cut", "the 180-degree rule", "a montage", "colour grading",
    "Foley sound", "non-diegetic sound", "a match cut", "shallow depth of field", "a dolly zoom",
    "a practical effect", "green-screen compositing", "a MacGuffin", "a cold open", "shot-reverse-shot",
    "an establishing shot", "a long unbroken take", "ADR (re-recording dialogue after filming)", "a Dutch angle",
    "slow motion", "stop-motion animation", "a voice-over", "cross-cutting", "a fade to black", "an extreme close-up",
    "handheld camera work", "a split screen", "a point-of-view shot", "a freeze frame",
]
_FILM_TECHNIQUE_TEMPLATES = [
    "What is {x} in filmmaking, and why would a director use it?",
    "explain {x} like it's my first day of film school",
    "Give me a famous example of {x} and explain what it adds.",
    "How could I use {x} in a short film shot on a phone?",
]
_FILM_AUDIENCES = [
    "a family movie night with kids aged 6 and 10", "a first date at home", "a sleepover with five 12-year-olds",
    "a night when I just want a good cry", "a rainy Sunday afternoon on my own", "a long-haul flight",
    "a Halloween party with people who scare easily", "a friend who says they hate subtitles",
    "a teenager who thinks old films are boring", "a cosy Christmas Eve", "a night in after a terrible week",
    "a couple who can never agree (one likes sci-fi, the other romcoms)", "my grandparents, who love old musicals",
    "my dad, who only really watches westerns", "a film club that has seen all the obvious classics",
    "someone learning French", "a summer evening with a projector in the garden", "a 1990s nostalgia night",
    "a book club that wants an adaptation to discuss", "friends who want something funny but not stupid",
    "a seven-year-old who loves animals", "a night when I'm too tired for anything complicated",
    "someone who's never seen a Studio Ghibli film", "a class of 14-year-olds studying storytelling",
    "a date with someone who loves horror when I don't",
]
_FILM_AUDIENCE_TEMPLATES = [
    "Recommend three films for {x}, with one line on why each works.", "what should we watch? it's for {x}",
    "I need a film for {x}. Nothing over two hours, please.", "Suggest one classic and one recent film for {x}.",
    "Put together a double bill for {x}, and explain how the two films go together.",
]
_FILM_GENRES = [
    "film noir", "the western", "screwball comedy", "the heist film", "the movie musical", "found-footage horror",
    "the romantic comedy", "the spaghetti western", "the disaster movie", "the road movie", "the courtroom drama",
    "the biopic", "the mockumentary", "the coming-of-age film", "the superhero film", "the war film",
    "the sports underdog film", "the slasher film", "the Bollywood musical", "the martial arts film",
    "the psychological thriller", "the period drama", "the monster movie", "the nature documentary",
    "the buddy cop film", "the time-loop film", "the French New Wave", "Italian neorealism",
    "German Expressionist cinema", "the space opera",
]
_FILM_GENRE_TEMPLATES = [
    "What are the classic ingredients of {x}?", "Give me a short history of {x} and a few key films to watch.",
    "why do people love {x} so much", "Write a pitch for a new film in the style of {x}, set in a small seaside town.",
    "Which modern films still borrow from {x}, and how?",
]
_FILM_QS = [
    "What does a film director actually do on set all day?",
    "What's the difference between a producer and an executive producer?",
    "What does a cinematographer do that the director doesn't?",
    "How are films edited? Walk me through what happens after filming ends.",
    "How does a film get its sound? I heard most of it is added later.",
    "How do casting directors choose actors for a role?", "What is a storyboard, and does every film use one?",
    "What does a script supervisor do?", "What happens at a table read?",
    "Why do big films cost so much to make? Where does the money go?",
    "How long does it take to make an animated feature like Toy Story?",
    "How does screenplay formatting work? Show me a short example scene.",
    "Write the first page of a screenplay about two strangers stuck in a lift.",
    "What's a logline? Write three for a film about a retired astronaut who opens a bakery.",
    "Why is one page of a script supposed to equal about one minute of screen time?",
    "What makes a good film review? Give me a simple structure.",
    "Rewrite this review so it's less harsh but still honest: 'This film was a boring, overlong mess and the "
    "acting was terrible.'",
    "Why do people say the book is always better than the film? Is that true?",
    "How do trailers manage to make bad films look good?", "How are Oscar winners chosen?",
    "Why are so many new films remakes, sequels and reboots?",
    "What is a director's cut, and why do some films have several versions?",
    "How is writing for TV different from writing a film?", "What does a TV showrunner do?",
    "Why do TV series end seasons on cliffhangers?",
    "How did silent films tell stories without dialogue?",
    "When did films start having sound, and how did that change Hollywood?",
    "Why are old films in black and white? Was colour impossible back then?",
    "What was the Hays Code, and how did it shape old Hollywood films?", "How are dangerous stunts filmed safely?",
    "How did they make the dinosaurs in Jurassic Park look so real in 1993?",
    "Why do horror films often work so well on small budgets?", "What's a cult film, and how does a film become one?",
    "how do movies make money now that everyone streams", "why do cinemas show so many adverts before the film",
    "Give me a ten-film starter list for world cinema, one film per country.",
    "I want to start a film club at work. How do we pick films and run the discussion?",
    "Write five discussion questions for a film club watching Casablanca.",
    "Pretend you're a film critic in 1977 seeing Star Wars on opening night. Write your reaction.",
    "Describe a scene from an imaginary thriller using only camera directions.",
    "Write a short scene in screenplay format where a barista realises a regular customer is a time traveller.",
    "How do actors cry on cue?", "What's the difference between acting on stage and acting on film?",
    "What makes a good film score? Name a few famous film composers.",
    "Why does the two-note music in Jaws work so well?",
    "i always fall asleep during slow films. how do i learn to enjoy them",
    "What order should a first-timer watch the Star Wars films in?",
    "What's the difference between a documentary and a docudrama?",
    "How do I make a short film with just my phone and two friends?",
    "How do film festivals like Cannes and Sundance work?",
    "What is the Bechdel test, and what does it not tell you about a film?",
    "What's the difference between a miniseries and an ordinary TV series?",
    "Why do some classic films feel slow to modern audiences?",
    "Explain the three-act structure using The Wizard of Oz as the example.",
    "my friends and I can never agree on a film. give me a fair system for choosing",
]
_FILM_SUFFIX = ["Keep it short.", "Assume I'm not a film buff.", "A few sentences is fine.",
                     "Bullet points are fine."]


@_category("film", "films and TV: genres, directors and classic films at a lay level, how films are made, "
                   "recommendations for a mood or group, endings, reviews and screenwriting basics")
def _gen_film(rng: random.Random) -> list[str]:
    classics = _take(rng, _fill(_FILM_CLASSIC_TEMPLATES, _FILM_CLASSICS), 95)
    directors = _take(rng, _fill(_FILM_DIRECTOR_TEMPLATES, _FILM_DIRECTORS), 45)
    techniques = _take(rng, _fill(_FILM_TECHNIQUE_TEMPLATES, _FILM_TECHNIQUES), 45)
    audiences = _take(rng, _fill(_FILM_AUDIENCE_TEMPLATES, _FILM_AUDIENCES), 45)
    genres = _take(rng, _fill(_FILM_GENRE_TEMPLATES, _FILM_GENRES), 45)
    out = classics + directors + techniques + audiences + genres + _FILM_QS
    return _decorate_questions(rng, out, _FILM_SUFFIX, 0.12)


# --- books -----------------------------------------------------------------------------

_BOOKS_BOOKS = [  # (title, author)
    ("Pride and Prejudice", "Jane Austen"), ("Nineteen Eighty-Four", "George Orwell"),
    ("To Kill a Mockingbird", "Harper Lee"), ("Jane Eyre", "Charlotte Brontë"),
    ("Wuthering Heights", "Emily Brontë"), ("Great Expectations", "Charles Dickens"),
    ("Moby-Dick", "Herman Melville"), ("The Great Gatsby", "F. Scott Fitzgerald"), ("Frankenstein", "Mary Shelley"),
    ("Dracula", "Bram Stoker"), ("Crime and Punishment", "Fyodor Dostoevsky"), ("Anna Karenina", "Leo Tolstoy"),
    ("Don Quixote", "Miguel de Cervantes"), ("One Hundred Years of Solitude", "Gabriel García Márquez"),
    ("Things Fall Apart", "Chinua Achebe"), ("The Catcher in the Rye", "J. D. Salinger"),
    ("Of Mice and Men", "John Steinbeck"), ("The Grapes of Wrath", "John Steinbeck"),
    ("Lord of the Flies", "William Golding"), ("Brave New World", "Aldous Huxley"),
    ("Little Women", "Louisa May Alcott"), ("The Odyssey", "Homer"), ("Hamlet", "William Shakespeare"),
    ("Macbeth", "William Shakespeare"), ("Middlemarch", "George Eliot"), ("Beloved", "Toni Morrison"),
    ("The Handmaid's Tale", "Margaret Atwood"), ("Animal Farm", "George Orwell"),
    ("Fahrenheit 451", "Ray Bradbury"), ("The Hobbit", "J. R. R. Tolkien"), ("Mrs Dalloway", "Virginia Woolf"),
    ("The Old Man and the Sea", "Ernest Hemingway"), ("Alice's Adventures in Wonderland", "Lewis Carroll"),
    ("The Picture of Dorian Gray", "Oscar Wilde"), ("Les Misérables", "Victor Hugo"),
    ("The Metamorphosis", "Franz Kafka"), ("Their Eyes Were Watching God", "Zora Neale Hurston"),
    ("Rebecca", "Daphne du Maurier"), ("The Little Prince", "Antoine de Saint-Exupéry"),
    ("Gulliver's Travels", "Jonathan Swift"), ("Treasure Island", "Robert Louis Stevenson"),
    ("The Secret Garden", "Frances Hodgson Burnett"), ("Never Let Me Go", "Kazuo Ishiguro"),
    ("A Christmas Carol", "Charles Dickens"), ("Heart of Darkness", "Joseph Conrad"), ("Persuasion", "Jane Austen"),
    ("The Count of Monte Cristo", "Alexandre Dumas"), ("War and Peace", "Leo Tolstoy"),
    ("Emma", "Jane Austen"), ("Romeo and Juliet", "William Shakespeare"),
]
_BOOK_TEMPLATES = [
    "What is {x} by {y} about? No spoilers, please.", "What big ideas is {x} exploring, beyond the story itself?",
    "Summarise {x} in one paragraph for a student who's about to study it.",
    "Is {x} worth reading today, or is it mostly famous for being famous?",
    "i'm finding {x} really hard going. any tips for getting through it",
    "What makes {y}'s {x} stand out from other books of its time?",
    "Give me five discussion questions about {x} that would get a book club arguing.",
    "Which character in {x} is the most interesting to talk about, and why?",
    "I loved {x}. What should I pick up next, and why?",
    "Write a spoiler-free back-cover blurb for {x} in a modern, punchy style.",
]
_LIT_TERMS = [
    "an unreliable narrator", "foreshadowing", "dramatic irony", "stream of consciousness", "magical realism",
    "an allegory", "satire", "a motif", "an antihero", "in medias res", "free indirect speech", "Chekhov's gun",
    "a frame narrative", "pathetic fallacy", "a red herring", "a foil character", "symbolism", "personification",
    "a tragic flaw", "catharsis", "an extended metaphor", "an omniscient narrator", "a soliloquy", "irony",
    "an archetype", "juxtaposition", "hyperbole", "an oxymoron", "imagery", "a cliffhanger",
]
_LIT_TERM_TEMPLATES = [
    "What is {x}? Give me an example from a well-known book, play or poem.",
    "explain {x} simply, i have an english exam tomorrow",
    "How do I spot {x} when I'm reading, and what should I say about it in an essay?",
    "Write a short paragraph that shows {x} in action, then point out where it happens.",
]
_READER_TASTES = [
    "I loved The Hunger Games and want something similar for adults",
    "I only read non-fiction but want to try a novel",
    "I haven't read a book since school and want to get back into it", "I like cosy mysteries with no gore",
    "I want a classic that isn't too long", "I'm going on holiday and want a gripping page-turner",
    "my 11-year-old has finished every Harry Potter book and wants more",
    "I loved Sapiens and want more big-picture history", "I'm into Agatha Christie and want more golden-age crime",
    "I want short stories I can read on my commute",
    "I liked Pride and Prejudice but found Dickens far too long",
    "I want a book that will actually make me laugh out loud", "I've had a hard year and want something gentle",
    "I loved The Lord of the Rings and want more epic fantasy", "I want to read more books by African authors",
    "I want to read more books in translation",
    "I want science fiction that's about ideas rather than space battles",
    "I want a book that explains economics without any maths",
    "my grandmother loves historical fiction set during the Second World War",
    "I want a thriller I can finish in a weekend", "I love books about nature and long walks",
    "I want an audiobook for a ten-hour drive", "my teenage son says reading is boring but he loves football",
    "I want a graphic novel for someone who's never read one",
    "I loved Little Women as a kid and want something with the same warmth",
    "I want a novel set in Japan", "I enjoy books where the setting feels like a character",
]
_READER_TASTE_TEMPLATES = [
    "{X}. Any suggestions?", "{X}. Suggest three books, with a sentence on why each fits.",
    "Book recommendation request: {x}.", "ok so {x}. what would you recommend",
]
_BOOKS_POEM_FORMS = [
    "a haiku", "a sonnet", "a limerick", "a villanelle", "free verse", "a ghazal", "a tanka", "an ode", "a ballad",
    "blank verse", "a cinquain", "a pantoum", "an acrostic poem", "a sestina", "an elegy", "a prose poem",
    "a concrete poem", "terza rima",
]
_POEM_FORM_TEMPLATES = [
    "What are the rules of {x}? Show me a short example.", "how is {x} different from other kinds of poem",
    "Can you name a famous example of {x} and who wrote it?",
]
_POEM_WRITE_FORMS = [
    "a haiku", "a sonnet", "a limerick", "a villanelle", "a short free-verse poem", "a tanka", "an ode", "a ballad",
    "a cinquain", "an acrostic poem", "a prose poem",
]
_BOOKS_POEM_TOPICS = [
    "a library on a rainy afternoon", "the last page of a good book", "a second-hand bookshop",
    "reading under the covers with a torch", "a library book returned thirty years late",
    "a note found inside a second-hand book",
]
_BOOK_QS = [
    "How do book clubs usually work? I want to start one with my neighbours.",
    "Write a friendly invitation for a new book club that meets once a month at the local library.",
    "How should a book club choose what to read so everyone stays interested?",
    "Our book club ends up chatting about everything except the book. How do we keep it on track?",
    "Give me ten book club picks that spark good discussion, with a line on each.",
    "How can I read more when I'm busy and tired in the evenings?", "is it ok to give up on a book halfway through",
    "Does listening to an audiobook count as reading?", "How do people manage to read 50 books a year?",
    "Paper books or an e-reader? Give me the pros and cons.", "How can I remember more of what I read?",
    "How do I take notes on a non-fiction book without it feeling like homework?",
    "I used to love reading but I've lost the habit. How do I get it back?",
    "How can I get my 9-year-old excited about reading?",
    "What do public libraries offer besides books that people often don't know about?",
    "How does an interlibrary loan work?", "How does the Dewey Decimal System organise books?",
    "What was the Library of Alexandria, and what do we actually know about it?",
    "How were books copied and shared before the printing press?",
    "What's the difference between literary fiction and genre fiction?",
    "What's the difference between a novel, a novella and a short story?",
    "What makes a book a 'classic'? Who decides?", "Why do so many classic novels start slowly?",
    "Why is Shakespeare so hard to read, and how can I make it easier?",
    "Tell me what happens in Hamlet in a few plain sentences.",
    "How are The Hobbit and The Lord of the Rings different in tone and audience?",
    "Who were the Brontë sisters, and what did each of them write?", "Why is Jane Austen still so popular?",
    "What makes Agatha Christie's mysteries so satisfying?",
    "What's the difference between a memoir and an autobiography?",
    "Recommend five classic short stories I can read in an evening.",
    "Write a one-star online review of Pride and Prejudice from a very grumpy modern reader.",
    "Rewrite the opening of A Tale of Two Cities as a modern text message.",
    "Summarise The Odyssey as a series of eight short social media posts.",
    "What happens at the end of Of Mice and Men, and why does it hit so hard?",
    "What does the green light mean in The Great Gatsby?",
    "What is Big Brother in Nineteen Eighty-Four, and why has the name stuck?",
    "Why do people call Frankenstein one of the first science fiction novels?",
    "What are some good novels for someone learning English as a second language?",
    "Are graphic novels 'proper' books? Make the case.", "What's the difference between poetry and prose?",
    "How do I read a poem when I always feel like I'm missing the point?",
    "What is the Booker Prize, and how are winners chosen?",
    "Who are some well-known winners of the Nobel Prize in Literature?",
    "how do i organise my bookshelves so i can actually find things",
    "Write a short poem about the smell of old books.",
    "Write a letter from a library book to the reader who returned it six months late.",
    "Pretend you're a librarian. I just finished Rebecca and loved it. What do you hand me next?",
    "Why are some books banned from school libraries, and what reasons are usually given?",
    "What's a reading slump, and how do people get out of one?",
    "Make me a 12-month reading challenge with one theme per month.",
    "How do I write a good book report for school? Give me a structure.",
    "Are audiobooks always narrated by the author? How are they made?",
    "Why do some classics have so many translations, and how do I choose one?",
    "What is fan fiction, and does it have a longer history than people think?",
    "What's the best order to read the Narnia books in? People seem to argue about it.",
    "Who was Sherlock Holmes's creator, and which story should I start with?",
    "Why is Don Quixote sometimes called the first modern novel?",
    "What makes a novel Gothic? Name a few classic examples.",
    "What is dystopian fiction, and why is it so popular with teenagers?",
    "What's an epistolary novel? Name a few famous ones.", "What is a bildungsroman? Give me three famous examples.",
    "What is the hero's journey, and which famous stories follow it?",
    "Who was Toni Morrison, and where should I start with her books?",
    "Which famous books were rejected many times before they were published?",
    "What's the difference between young adult and middle-grade books?",
    "I want to read more poetry. Which poets are good starting points?",
]
_BOOK_SUFFIX = ["Keep it short.", "Explain it simply.", "Bullet points are fine.", "A paragraph is plenty."]


@_category("books", "reading and literature: classic and popular books and authors, literary terms, book clubs, "
                    "reading habits, recommendations by taste, poetry forms and libraries")
def _gen_books(rng: random.Random) -> list[str]:
    books = _take(rng, _fill(_BOOK_TEMPLATES, _BOOKS_BOOKS), 110)
    terms = _take(rng, _fill(_LIT_TERM_TEMPLATES, _LIT_TERMS), 55)
    tastes = _take(rng, _fill(_READER_TASTE_TEMPLATES, _READER_TASTES), 52)
    forms = _take(rng, _fill(_POEM_FORM_TEMPLATES, _BOOKS_POEM_FORMS), 25)
    poems = _take(rng, _fill_cross(["Write {x} about {y}."], _POEM_WRITE_FORMS, _BOOKS_POEM_TOPICS), 20)
    out = books + terms + tastes + forms + poems + _BOOK_QS
    return _decorate_questions(rng, out, _BOOK_SUFFIX, 0.12)


# --- writing ---------------------------------------------------------------------------

_WRITING_PROBLEMS = [
    "my dialogue sounds stiff and every character talks the same", "my villain feels like a cardboard cut-out",
    "the middle of my story sags", "I can never decide between first person and third person",
    "my opening chapter is mostly backstory", "my protagonist is passive and things just happen to her",
    "my short stories all end too abruptly", "my descriptions are either too sparse or far too long",
    "I keep switching tenses without noticing", "my beta readers say they don't care about my main character",
    "my plot twist is too easy to guess", "I keep jumping between characters' thoughts in the same scene",
    "my fantasy world has lots of lore and not much story", "my love interest has no personality",
    "every chapter ends the same way", "every scene in my novel is two people talking in a kitchen",
    "my action scenes are confusing to follow", "my short story has far too many characters",
    "I write great beginnings but never finish anything", "my jokes don't land on the page",
    "my first draft is 40,000 words too long", "readers guess the killer in my mystery by chapter three",
    "my 12-year-old narrator sounds like a 40-year-old", "my sci-fi story opens with a huge info-dump",
    "my characters keep agreeing with each other, so there's no tension",
]
_WRITING_PROBLEM_TEMPLATES = [
    "{X}. How do I fix it?", "{X}. What techniques do professional writers use for this?",
    "writing problem: {x}. help", "{X}. Can you give me an exercise to practise fixing this?",
    "I'm stuck: {x}. Where should I start?",
]
_CRAFT_IDEAS = [
    "'show, don't tell'", "point of view", "pacing", "subtext in dialogue", "a character arc", "the inciting incident",
    "raising the stakes", "a story's theme", "a writer's voice", "tension", "worldbuilding", "a strong opening line",
    "conflict", "close third person", "second-person narration", "a flashback", "a satisfying ending",
    "sensory detail", "a character's want versus their need", "the rule of three", "a ticking clock",
    "a narrative hook", "scene-setting", "an unlikeable but compelling protagonist", "internal monologue",
    "dialogue tags",
]
_CRAFT_IDEA_TEMPLATES = [
    "Explain {x} with a before-and-after example.", "What do writing teachers mean when they talk about {x}?",
    "What's the most common mistake beginners make with {x}?",
    "Write a 100-word scene that demonstrates {x}, then explain how it does it.",
]
_NONFICTION = [
    "a personal essay about moving to a new country", "a college application essay about a time I failed",
    "a blog post about my first year keeping bees", "an opinion column about four-day working weeks",
    "a travel blog post about a rainy week in Lisbon", "a monthly newsletter for my pottery studio",
    "a persuasive essay on school uniforms", "a review of a local café for my blog",
    "a how-to post on repotting houseplants", "a memoir chapter about childhood summers at my grandparents' farm",
    "an 'about me' page for my photography website", "a LinkedIn article about changing careers at 45",
    "a funny column about my daily commute", "a history essay on the causes of the First World War",
    "a food blog post with a short story before the recipe",
    "a blog post about learning to run at 50", "a compare-and-contrast essay on two poems",
    "a speech for my grandmother's 90th birthday",
]
_NONFICTION_TEMPLATES = [
    "I'm writing {x}. How should I structure it?", "Give me three possible opening lines for {x}.",
    "What would make {x} stand out rather than just be fine?",
    "i need to write {x} and i'm stuck on the first paragraph",
    "Make me an outline for {x}, with a note on what goes in each section.",
]
_OPENING_LINES = [
    "The lighthouse keeper had not spoken to anyone in eleven days when the knock came.",
    "Nobody in the village could remember who had planted the tree, but everyone agreed it was getting closer.",
    "My grandmother left me three things: a key, a recipe and a list of people never to trust.",
    "The last bus of the night was empty except for a man holding a birthday cake.",
    "On the morning of her wedding, Priya found a letter addressed to her in her own handwriting.",
    "The robot had been built to water the plants, and it had never once asked why.",
    "It rained for the whole of August, and by September the town had started to float.",
    "Dad said the attic was off-limits, which is exactly why we went up there.",
    "The first thing I noticed about the new teacher was that she didn't have a shadow.",
    "Every Tuesday at four, someone left a single lemon on our doorstep.",
    "The map said the island was two miles wide; the island disagreed.",
    "By the time the detective arrived, the parrot had already told everyone who did it.",
    "When the power went out, the whole street came outside and met each other for the first time.",
    "I found the note in a library book I had borrowed twice before.",
    "The ship's cook was the only one who knew we were lost.",
    "Mrs Okafor had run the corner shop for forty years and had never once closed early, until today.",
    "The dog came home wearing a collar none of us had ever seen.",
    "There were eight chairs at the dinner table and only seven of us.",
    "The summer I turned twelve, I decided to become a pirate.",
    "The letter was postmarked 1987 and had only just arrived.",
    "Grandpa's old radio only picked up one station, and it was broadcasting tomorrow's news.",
    "Snow fell in the desert, and the camels were not impressed.",
]
_OPENING_TEMPLATES = [
    'Continue this story opening for about 150 words: "{x}"',
    'Here\'s the first line of a story: "{x}" What genre does it suggest, and what might happen next?',
    'Is this a strong opening line? Why or why not? "{x}"', 'Write the next three sentences after this: "{x}"',
]
_STYLE_QS = [  # grammar and style points not already covered by the language category
    "Is it OK to start a sentence with 'and' or 'but'?", "Can I end a sentence with a preposition?",
    "How do I punctuate dialogue correctly? Show me a few examples.",
    "When should I use an em dash, and when is a comma or brackets better?",
    "Should numbers be written as words or digits in an essay?", "How long should a paragraph be?",
    "Is it wrong to use 'they' for one person in formal writing?", "What's the difference between 'lay' and 'lie'?",
    "How many adverbs is too many? Everyone says to cut them.", "What's wrong with using 'very' all the time?",
    "How do I avoid repeating the same word in a paragraph without sounding like a thesaurus?",
    "When should I use italics instead of quotation marks?",
]
_WRITING_QS = [
    "I've had writer's block for three months. What actually helps?", "Is writer's block real, or is it just fear?",
    "Give me a 15-minute daily writing routine for someone with a full-time job.",
    "How do I get a literary agent for my novel? Explain the process from finished draft to offer.",
    "What's a query letter, and what should it include?",
    "Should I self-publish or go the traditional route? Pros and cons.", "How long should a first novel be?",
    "What's a synopsis, and how is it different from a blurb?",
    "How do I take criticism from a writing group without getting defensive?",
    "How do I give useful feedback on a friend's short story?",
    "I've just finished a first draft. What should I look at first when I revise?",
    "What's the difference between editing, copy-editing and proofreading?",
    "How do I know when my novel is finished?",
    "Cut this paragraph by half without losing the meaning: 'At this point in time, it is my personal belief that "
    "we should actually consider the possibility of perhaps moving the meeting to a later date, due to the fact "
    "that many people are not able to attend.'",
    "Make this sentence less wordy: 'The reason why I am writing this email is because I wanted to ask whether "
    "or not you might have some time.'",
    "Tighten this opening line and explain what you changed: 'It was a dark and stormy night, and the rain was "
    "falling down heavily from the dark, cloudy sky above.'",
    "Rewrite this dialogue so it has more subtext: 'I'm angry that you forgot my birthday,' said Maria. 'I'm "
    "sorry, I was busy with work,' said Tom.",
    "Give me ten writing prompts for a rainy afternoon.", "Give me a writing exercise for practising dialogue.",
    "What's a good exercise for finding my own writing voice?",
    "How do I write a convincing character who is very different from me?",
    "How do I write a twist ending without cheating the reader?",
    "How do I name characters in a fantasy novel so the names don't sound silly?",
    "What's flash fiction? Write an example in under 100 words.", "How do I start a blog that people actually read?",
    "How often should I post on a blog, and how long should posts be?",
    "Write five possible titles for a blog post about learning to bake bread at 60.",
    "How do I write a personal essay that isn't just a diary entry?",
    "What's the five-paragraph essay, and when should I move beyond it?",
    "How do I write a strong thesis statement? Show me a weak one and a strong one.",
    "How do I write a conclusion that doesn't just repeat my introduction?",
    "What does 'kill your darlings' mean?", "Should I write every day, even if what I write is bad?",
    "How do I write about my family in a memoir without upsetting them?",
    "How do I make my writing sound less stiff and formal?", "Should I outline my novel or just start writing?",
    "Is writing a 50,000-word draft in one month a good idea or a recipe for a mess?",
    "Pretend you're a tough but kind writing teacher. Before I paste my opening page, tell me what you'll look "
    "for first.",
    "Write a short pep talk for a writer who's about to give up on their first novel.",
    "What do magazine editors look for in a short story submission?",
    "How do I find literary magazines to submit my short stories to?",
    "Do I need a prologue, or should I just start with chapter one?",
    "Help me write a one-sentence pitch for my novel about a retired detective who takes up beekeeping.",
    "My writing group meets next week and I have to bring 500 words. Give me three quick ideas.",
    "how do you actually finish a novel when you have a job and kids",
    "What can fiction writers learn from reading poetry?",
    "What's the difference between a plot and a story?",
    "How do I write a good author bio for a short story competition?",
    "What's the difference between a short story and a vignette?", "How do I write a villain whose motives make sense?",
    "How many point-of-view characters can a novel have before it gets confusing?",
    "How do I describe a character's appearance without the 'looking in the mirror' cliché?",
    "How do I write a believable romance without it getting cheesy?",
    "What does a developmental editor do, and do I need one before querying agents?",
    "Give me a checklist for a final read-through before I submit a short story.",
    "How do I write a newsletter that people actually open?",
    "How do I write an opinion piece for my local newspaper? What do editors want?",
    "How do I turn my travel diary into essays people would want to read?",
    "Write a 50-word story with a clear beginning, middle and end.",
    "Give me a 30-day writing challenge with one small exercise a day.",
    "Give me five exercises for writing better descriptions of places.",
    "What's a 'beat' in a scene, and why do editors talk about them?",
    "How do I research a historical novel without drowning in research?",
    "How should I format a manuscript before sending it to an agent?",
    "What is a writing residency, and how do people get one?",
    "What makes a children's picture book work? I want to write one.",
    "How do I write for teenagers without sounding like an adult trying too hard?",
    "How do I handle time jumps in a novel without confusing readers?",
    "Why do writers read their drafts out loud? What does it catch?",
    "What's the difference between a story's theme and its moral?",
    "How do I write a quiet scene where not much happens but it still feels important?",
    "Write the same sentence in the active and the passive voice, and explain when each works better.",
    "Is it OK to use real places and brand names in my novel?",
    "what's the best way to write a novel on my phone during my commute",
    "i keep rewriting chapter one over and over. how do i move on",
]
_WRITING_SUFFIX = ["Keep it short.", "Give me a concrete example.", "Be blunt.", "Bullet points are fine."]


@_category("writing", "the craft of writing: plot, character, dialogue and point of view, essays and blogging, "
                      "editing and revision, writer's block, grammar and style, getting published, exercises")
def _gen_writing(rng: random.Random) -> list[str]:
    problems = _take(rng, _fill(_WRITING_PROBLEM_TEMPLATES, _WRITING_PROBLEMS), 80)
    ideas = _take(rng, _fill(_CRAFT_IDEA_TEMPLATES, _CRAFT_IDEAS), 60)
    nonfiction = _take(rng, _fill(_NONFICTION_TEMPLATES, _NONFICTION), 60)
    openings = _take(rng, _fill(_OPENING_TEMPLATES, _OPENING_LINES), 40)
    out = problems + ideas + nonfiction + _STYLE_QS
    return _decorate_questions(rng, out, _WRITING_SUFFIX, 0.12) + openings + _WRITING_QS


# --- drinks ----------------------------------------------------------------------------

_BREWERS = [
    "a French press", "a V60 pour-over cone", "an AeroPress", "a stovetop moka pot", "a Chemex",
    "an ordinary drip machine", "a Turkish cezve", "a Vietnamese phin filter", "a siphon brewer",
    "a home espresso machine", "a percolator", "a cheap manual espresso maker",
]
_BREWER_TEMPLATES = [
    "How do I make a really good cup with {x}? Walk me through it.",
    "My coffee from {x} tastes bitter. What should I change?", "what grind size and ratio should i use for {x}",
    "Is {x} worth buying for a beginner? What are the pros and cons?", "How do I clean and look after {x}?",
]
_DRINKS = [
    "a flat white", "a cortado", "a macchiato", "a long black", "an affogato", "a café au lait", "Turkish coffee",
    "Vietnamese egg coffee", "a Greek frappé", "café de olla", "matcha", "sencha", "oolong tea", "pu-erh tea",
    "Earl Grey", "rooibos", "masala chai", "yerba mate", "kombucha", "bubble tea", "Hong Kong milk tea",
    "Thai iced tea", "Moroccan mint tea", "horchata", "mango lassi", "ayran", "agua fresca",
    "Southern-style sweet tea", "a London Fog", "hibiscus tea", "Korean barley tea", "golden milk",
    "Mexican hot chocolate", "a Cuban cafecito", "teh tarik", "salep", "sugarcane juice", "a dirty chai",
    "ginger beer", "root beer",
]
_DRINK_TEMPLATES = [
    "What is {x}, and where does it come from?", "What's the best way to prepare {x} at home?",
    "what does {x} taste like",
    "I'm trying {x} for the first time tomorrow. What should I expect?",
    "Tell me the story behind {x} in a few sentences.",
]
_TEAS = [
    "green tea", "black tea", "white tea", "oolong", "Ceylon tea", "Earl Grey", "jasmine tea", "chamomile",
    "fresh mint tea", "loose-leaf Darjeeling", "Assam", "gyokuro", "lapsang souchong", "genmaicha",
]
_TEA_TEMPLATES = [
    "What water temperature and steeping time should I use for {x}?", "Why does my {x} taste bitter or flat?",
    "how do i brew {x} properly",
]
_DRINK_CLAIMS = [
    "you need to drink exactly eight glasses of water a day", "coffee dehydrates you",
    "if you feel thirsty you're already dehydrated", "green tea burns fat", "drinking cold water after a meal is bad",
    "coffee stunts children's growth", "decaf has no caffeine at all",
    "dark roast coffee has more caffeine than light roast", "adding milk to tea cancels out its benefits",
    "sparkling water is bad for your teeth", "fruit juice is as healthy as eating the fruit",
    "you need a sports drink for a 30-minute workout", "you can drink too much water",
    "coconut water hydrates you better than plain water", "a hot drink can cool you down on a hot day",
    "detox teas cleanse your body", "a shot of espresso has more caffeine than a mug of filter coffee",
    "herbal tea counts towards your daily water intake",
]
_DRINK_CLAIM_TEMPLATES = [
    "Is it true that {x}?", "My friend insists {x}. Is that a myth?", "fact check: {x}",
    "What does the evidence say about the claim that {x}?",
]
_CAFE_PLACES = [
    "Vienna", "Melbourne", "Italy", "Istanbul", "Ethiopia", "Japan", "Paris", "Seattle", "Colombia", "Vietnam",
    "Sweden", "Morocco", "Hong Kong", "Argentina", "Taiwan", "Cuba", "Lisbon", "India", "Mexico City", "Seoul",
]
_CAFE_TEMPLATES = [
    "What's café culture like in {x}?", "I'm travelling to {x}. How do I order coffee or tea like a local?",
    "What drink should I try first when I visit {x}?", "what are the unwritten rules of cafés in {x}",
]
_SMOOTHIES = [
    "that has spinach in it but doesn't taste of it", "that will keep me full until lunch",
    "made only from frozen fruit and oats", "without banana", "that a fussy toddler will actually drink",
    "with no added sugar", "for after a long run", "that uses up leftover berries and yoghurt",
    "that tastes like a tropical holiday", "with peanut butter and cocoa", "that's completely dairy-free",
    "I can make the night before", "with plenty of protein but no protein powder", "for a hot summer afternoon",
    "that uses up overripe mangoes",
]
_SMOOTHIE_TEMPLATES = [
    "Give me a smoothie recipe {x}.", "what's a good smoothie {x}",
    "Come up with a smoothie {x}, with amounts for one glass.",
]
_DRINK_QS = [
    "What's the difference between arabica and robusta beans?",
    "What do light, medium and dark roasts actually change about the taste of coffee?",
    "What does 'single origin' mean on a bag of coffee?",
    "How long do coffee beans stay fresh after roasting, and how should I store them?",
    "Should I keep coffee beans in the freezer?", "Is a burr grinder really worth it over a blade grinder?",
    "What does the crema on an espresso tell you?", "Why does espresso need so much pressure?",
    "How do baristas pour latte art? Can I learn at home without a steam wand?",
    "How do I froth milk at home without an espresso machine?", "Which plant milks froth best for a latte?",
    "Line up a latte, cappuccino, flat white and cortado from strongest coffee taste to milkiest, with a "
    "sentence on each.",
    "How is decaf coffee made?", "What's the difference between cold brew and iced coffee?",
    "How long does homemade cold brew keep in the fridge?", "Why does my coffee taste sour?",
    "Roughly how much coffee a day is too much for a healthy adult?",
    "How did coffee spread from Ethiopia to the rest of the world?",
    "What were the coffee houses of 17th-century London like?", "How did tea become such a big part of British life?",
    "What happens during a Japanese tea ceremony?",
    "Green, black and oolong tea all come from the same plant. So why do they taste so different?",
    "Does a cup of tea have more or less caffeine than a cup of coffee?",
    "Milk in the cup before or after the tea? Give me both sides of the argument.",
    "How do I make proper chai from scratch with whole spices?",
    "How do I make iced tea that isn't cloudy or bitter?",
    "What's the best way to make hot chocolate from a bar of chocolate instead of powder?",
    "Why is hot chocolate in Spain so thick?",
    "Give me three hot chocolate variations for a winter party, including one just for kids.",
    "How do cacao beans become cocoa powder?", "How do I make fresh lemonade that isn't too sour or too sweet?",
    "What's the difference between 'juice', 'nectar' and 'juice drink' on a label?",
    "Is it worth buying a juicer, or is a blender better?", "How long does fresh-pressed juice keep in the fridge?",
    "What's the story of how Coca-Cola started?", "Why do fizzy drinks go flat faster when they're warm?",
    "Why does a shaken can of fizzy drink spray everywhere when you open it?",
    "How do they put the bubbles into sparkling water?", "Is tap water or bottled water better, in general?",
    "How can I drink more water when I just don't like the taste?",
    "Give me ten ways to flavour water without adding sugar.",
    "What are some good alcohol-free drinks to serve at a summer party?",
    "Make a drinks menu for a kids' birthday party with five fun options.",
    "I run a small café. Which drinks could I add to the menu that are cheap to make but feel special?",
    "How do I set up a coffee corner at home on a small budget?",
    "What should I look for when buying my first espresso machine?",
    "Why does café coffee taste so much better than what I make at home?",
    "What does a barista mean by 'dialling in' the espresso each morning?",
    "What's the difference between fair trade and direct trade coffee?",
    "Where is most of the world's coffee grown, and why there?", "Which countries grow the most tea?",
    "is matcha actually healthier than regular green tea or is that hype",
    "Write a short poem about the first coffee of the morning.",
    "Write a cosy 100-word scene set in a tiny tea shop on a snowy day.",
    "Pretend you're a barista. A customer wants 'something like a latte but less milky'. What do you suggest, "
    "and how do you explain it?",
    "Describe the taste of a good espresso to someone who's only ever had instant coffee.",
    "Write a short product description for a small-batch Ethiopian coffee sold online.",
    "Write a café chalkboard sign for a new autumn drink in under 20 words.",
    "Rewrite this café review to be more useful to other people: 'Coffee was good. Place was busy. Would go "
    "again I guess.'",
    "What did ordinary people in Europe drink every day before tea and coffee arrived?",
    "What's the healthiest way to sweeten coffee or tea?", "How is instant coffee made? Is it real coffee?",
    "What is coffee cupping, and how do professionals taste coffee?",
    "Why did the pumpkin spice latte become such a big deal?",
    "what's the difference between a smoothie and a milkshake really",
    "How do I make a thick, creamy milkshake at home without ice cream?",
    "Why do some people put butter in their coffee? Does it do anything?",
    "What's the difference between soda, pop and soft drink? Is it just where you live?",
]
_DRINK_SUFFIX = ["Keep it short.", "Bullet points are fine.", "A few sentences is fine."]
_BREW_SUFFIX = ["Keep it short.", "I'm a complete beginner.", "Assume I only have basic kitchen equipment."]


@_category("drinks", "everyday non-alcoholic drinks: coffee brewing and espresso, tea types and brewing, smoothies "
                     "and juices, hot chocolate, soft drinks, hydration myths and café culture around the world")
def _gen_drinks(rng: random.Random) -> list[str]:
    brewers = _take(rng, _fill(_BREWER_TEMPLATES, _BREWERS), 40)
    drinks = _take(rng, _fill(_DRINK_TEMPLATES, _DRINKS), 85)
    teas = _take(rng, _fill(_TEA_TEMPLATES, _TEAS), 25)
    claims = _take(rng, _fill(_DRINK_CLAIM_TEMPLATES, _DRINK_CLAIMS), 40)
    cafes = _take(rng, _fill(_CAFE_TEMPLATES, _CAFE_PLACES), 45)
    smoothies = _take(rng, _fill(_SMOOTHIE_TEMPLATES, _SMOOTHIES), 28)
    making = _decorate_finished(rng, brewers + teas + smoothies, _BREW_SUFFIX, 0.15)
    out = drinks + claims + cafes + _DRINK_QS
    return making + _decorate_questions(rng, out, _DRINK_SUFFIX, 0.1)


# --- socialmedia -----------------------------------------------------------------------

_PLATFORMS = [
    "Instagram", "TikTok", "Facebook", "X (formerly Twitter)", "LinkedIn", "Reddit", "YouTube", "Snapchat",
    "Pinterest", "Threads", "Bluesky", "Mastodon", "Discord", "Twitch", "Tumblr", "Nextdoor", "WhatsApp",
]
_PLATFORM_TEMPLATES = [
    "What is {x} actually for, and who uses it?", "Explain {x} to my mum, who has never used it.",
    "I've just joined {x}. What are the unwritten rules?", "how do i make my {x} account more private",
    "Is it worth joining {x} if I just want to keep up with friends?",
]
_POST_SUBJECTS = [
    "my dog's third birthday", "the opening of my small bakery", "finishing my first marathon",
    "a sunset photo from my holiday in Crete", "starting a new job", "my grandmother's 90th birthday party",
    "a before-and-after photo of my garden", "leaving my job after ten years", "our engagement",
    "a plate of homemade pasta", "a charity bake sale this Saturday", "my band's first gig",
    "graduating from university", "a new scent from my candle shop", "a hiking trip where everything went wrong",
    "my first attempt at pottery", "moving into our first house", "a throwback photo from 2005",
    "a job opening at my company", "my first book being published", "our school's summer fair",
]
_POST_TEMPLATES = [
    "Write three Instagram captions for {x}: one funny, one heartfelt, one very short.",
    "caption ideas for {x}?", "Write a short, friendly Facebook post about {x}. Nothing over the top.",
]
_SM_SITUATIONS = [
    "a stranger keeps leaving nasty comments on my posts", "my aunt shares obviously fake news stories on Facebook",
    "my 12-year-old wants a TikTok account", "I spend about four hours a day scrolling and feel awful about it",
    "someone made a fake account using my photos", "an ex keeps viewing every story I post",
    "a friend posted photos of my kids without asking me",
    "I got a message saying I'd won a prize from a brand I follow",
    "a post I made was taken the wrong way and people are piling on",
    "my boss sent me a friend request on Facebook", "my small business account gets almost no engagement",
    "a group chat I'm in has become really toxic", "someone I barely know keeps sliding into my DMs",
    "my teenage daughter compares herself to influencers all the time",
    "my account got hacked and is posting crypto adverts",
    "my partner wants to post photos of our baby and I don't",
    "a relative keeps leaving embarrassing comments on my posts",
    "I accidentally liked a photo from three years ago on my crush's profile",
    "an old school friend keeps messaging me about a 'business opportunity'",
    "someone is pretending to be my business on Instagram",
    "I want to quit social media but I'm worried I'll miss out",
    "I posted something political and now my family is arguing in the comments",
    "my 70-year-old dad keeps clicking on suspicious links",
    "a brand wants me to promote their product in exchange for a free sample",
    "one of my videos went a bit viral and I'm getting weird comments",
]
_SM_SITUATION_TEMPLATES = [
    "{X}. What should I do?", "{X}. How do I handle it without making things worse?", "ugh, {x}. advice?",
    "{X}. Walk me through my options.",
]
_SM_CONCEPTS = [
    "the algorithm that decides what I see", "engagement rate", "shadowbanning", "going viral",
    "influencer marketing", "sponsored posts", "hashtags", "TikTok's For You page", "doomscrolling",
    "echo chambers", "two-factor authentication", "end-to-end encryption in messaging apps", "content moderation",
    "bots and fake followers", "parasocial relationships", "cancel culture", "the creator economy",
    "link-in-bio pages", "targeted ads", "catfishing", "a 'finsta'", "Reddit karma", "verified badges",
    "getting ratioed", "read receipts", "clickbait", "rage bait", "a social media detox",
    "the attention economy", "infinite scroll", "deepfakes", "affiliate links", "going live",
]
_SM_CONCEPT_TEMPLATES = [
    "Explain {x} in simple terms.", "what's the deal with {x}",
    "Explain {x} to a 12-year-old who's just got their first phone.",
    "Give me a quick, jargon-free explanation of {x}, with one everyday example.",
]
_SCAMS = [
    "fake giveaways", "romance scams", "crypto investment scams", "fake job offers sent through social media",
    "phishing messages claiming your account will be deleted", "fake online shops advertised on Instagram",
    "'is this you in this video?' messages", "accounts pretending to be celebrities",
    "fake charity appeals after a disaster", "concert ticket scams on Facebook",
    "marketplace overpayment scams", "'recovery' scams that promise to get lost money back",
    "puppy and kitten selling scams", "fake rental listings", "fake customer-support accounts",
    "'friend in trouble' messages asking for money",
]
_SCAM_TEMPLATES = [
    "How do {x} work, and how can I spot them?", "What are the warning signs of {x}?",
    "Write a short warning post for my community group about {x}.",
    "my mum nearly fell for one of those {x}. how do i explain the red flags to her",
]
_SM_QS = [
    "What information should I never put in my social media profile?",
    "How can I see what a stranger sees when they look at my profile?",
    "Should I turn off location tags on the photos I post?",
    "What do apps mean when they say they 'share data with partners'?",
    "Is it safe to post photos of my kids online? What are the actual risks?",
    "How do I talk to my teenager about what's OK to post?",
    "Write a family agreement about phones and social media for a house with two teenagers.",
    "What's a realistic daily screen-time goal for an adult who works on a computer all day?",
    "How do I stop doomscrolling in bed?", "Give me a one-week plan to cut my social media use in half.",
    "Why are social media apps so hard to put down? Explain the design tricks.",
    "Does switching my phone to greyscale really help with screen time?",
    "What happens to my social media accounts when I die? Should I plan for that?",
    "How do content creators actually make money?", "Why do creators keep saying 'like and subscribe'?",
    "Why does one of my posts do well and the next one gets nothing?",
    "Does the time of day I post actually make a difference?",
    "How do I start a small YouTube channel about gardening with no experience?",
    "Plan a month of posts for a local bakery's Instagram, three a week.",
    "Why do influencers have to label posts as ads? What are the rules, roughly?",
    "How do online communities stay friendly? What do moderators actually do?",
    "I want to start a Discord server for my book club. How do I set it up and keep it welcoming?",
    "Write a short set of rules for a neighbourhood Facebook group.",
    "How do I moderate a growing online group without becoming a dictator?",
    "Is it ever worth replying to trolls, or should I always ignore them?",
    "What's the difference between criticism and trolling, and how should I respond to each?",
    "Write a calm, short reply to someone who commented that my cooking video was 'the worst recipe on the "
    "internet'.",
    "How can I support a friend who's being bullied online?",
    "What should a parent do if their child is being bullied online?",
    "What's the etiquette for tagging people in photos?",
    "Is it unkind to post about a party some friends weren't invited to?",
    "When is it OK to post about someone else's news, like a pregnancy or an engagement?",
    "How do I politely ask a friend to take down a photo of me?",
    "Is it weird to unfriend people I haven't spoken to in years?",
    "How should I handle social media after a breakup?", "How can I tell if an account is a bot?",
    "How can I tell if a viral photo is fake or AI-generated?",
    "What should I check before sharing a shocking news story I saw online?",
    "A friend messaged asking me to forward a code that just came to my phone. Is that a scam?",
    "What should I do straight away if my social media account gets hacked?",
    "What's the single most useful thing I can do to stop my accounts getting hacked?",
    "Who owns the photos I upload to social media?",
    "Write a short, upbeat Instagram bio for a dog-walking business, under 150 characters.",
    "Write five bio options for my TikTok about cheap vegetarian cooking.",
    "Rewrite this post so it sounds less angry: 'Can't believe the council STILL hasn't fixed the potholes on "
    "our road. Useless!!!'",
    "Turn this into a short LinkedIn post: 'After eight years as a teacher, I'm starting a new job as a learning "
    "designer. I'll miss my students but I'm excited to build courses that reach more people.'",
    "Write a LinkedIn post saying I've been made redundant and I'm looking for work, without sounding desperate.",
    "Write a lost-cat post for our neighbourhood group: grey tabby, answers to Milo, last seen near the park on "
    "Tuesday.",
    "Write a five-post thread explaining why sleep matters.",
    "What was social media like before Facebook? Tell me about MySpace and old web forums.",
    "How has social media changed the way news spreads?",
    "What does research say so far about social media and teenagers' mental health?",
    "Why do some people share their whole lives online?",
    "Let's role-play: you're a 13-year-old asking to join Instagram and I'm the parent. Open with your best "
    "argument.",
    "Tell a story about a seaside village whose only phone mast blows down in a storm and nobody can post for a month.",
    "Write a funny poem about checking your phone for notifications that never come.",
    "what's the point of stories that disappear after 24 hours",
    "why does everyone hate the new layout every time an app updates",
    "How do I take a break from social media without people thinking I've vanished?",
    "Give me five simple rules for staying safe on Facebook that I can print out for my dad.",
    "What's a digital footprint, and how do I tidy mine up before applying for jobs?",
    "Should I keep separate personal and professional accounts?",
    "How do I report a fake account, and what happens after I do?",
    "My video was taken down for 'violating guidelines' and I don't know why. What usually causes that?",
    "Why do some posts get lots of likes but no comments?",
    "Is it rude to watch someone's stories but never reply to their messages?",
    "How do I write a post asking for recommendations that people will actually answer?",
]
_SM_SUFFIX = ["Keep it short.", "Explain it like I'm not very techy.", "Bullet points are fine.",
                   "A few sentences is fine."]


@_category("socialmedia", "social media and online life: platforms, posts and captions, screen time, privacy, "
                          "trolls, online communities, creators and algorithms, digital etiquette and scams")
def _gen_socialmedia(rng: random.Random) -> list[str]:
    platforms = _take(rng, _fill(_PLATFORM_TEMPLATES, _PLATFORMS), 45)
    posts = _take(rng, _fill(_POST_TEMPLATES, _POST_SUBJECTS), 45)
    situations = _take(rng, _fill(_SM_SITUATION_TEMPLATES, _SM_SITUATIONS), 75)
    concepts = _take(rng, _fill(_SM_CONCEPT_TEMPLATES, _SM_CONCEPTS), 58)
    scams = _take(rng, _fill(_SCAM_TEMPLATES, _SCAMS), 40)
    out = platforms + situations + concepts + scams + posts + _SM_QS
    return _decorate_questions(rng, out, _SM_SUFFIX, 0.12)


# ---------------------------------------------------------------------------------------
# Building and writing
# ---------------------------------------------------------------------------------------


def build() -> dict[str, list[str]]:
    """Each category's prompts in build order; a prompt generated twice is kept once, under
    the first category that produced it."""
    seen: set[str] = set()
    out: dict[str, list[str]] = {}
    for name, gen in _GENERATORS.items():
        kept = []
        for p in gen(random.Random(f"minedraft.prompts:{name}")):  # str seeds hash with sha512
            p = p.strip()
            if p and p not in seen:
                seen.add(p)
                kept.append(p)
        out[name] = kept
    return out


def encode(by_category: dict[str, list[str]]) -> tuple[str, bytes]:
    """The two files' contents. gzip with mtime 0 and no file name, so equal prompts give
    equal bytes."""
    categories = json.dumps(CATEGORIES, indent=1, ensure_ascii=False) + "\n"
    lines = "".join(json.dumps({"category": name, "prompt": p}, ensure_ascii=False) + "\n"
                    for name, ps in by_category.items() for p in ps)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        f.write(lines.encode("utf-8"))
    return categories, buf.getvalue()


def read(out_dir: Path) -> tuple[dict[str, str], dict[str, list[str]]]:
    """What the shipped files hold (for --check)."""
    categories = json.loads((out_dir / CATEGORIES_FILE).read_text(encoding="utf-8"))
    by_category: dict[str, list[str]] = {}
    with gzip.open(out_dir / PROMPTS_FILE, "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            by_category.setdefault(row["category"], []).append(row["prompt"])
    return categories, by_category


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, default=OUT_DIR)
    ap.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = ap.parse_args(argv)
    by_category = build()
    if args.check:
        if read(args.out_dir) != (CATEGORIES, by_category):
            print(f"{args.out_dir} does not hold what {Path(__file__).name} makes; rerun it", file=sys.stderr)
            return 1
        print(f"ok: {sum(map(len, by_category.values()))} prompts in {len(by_category)} categories match")
        return 0
    categories, prompts = encode(by_category)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / CATEGORIES_FILE).write_text(categories, encoding="utf-8")
    (args.out_dir / PROMPTS_FILE).write_bytes(prompts)
    print(f"wrote {sum(map(len, by_category.values()))} prompts in {len(by_category)} categories to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
