"""A generated newsroom for the Strapi fixture (`tools/strapi_fixture.py --stories N`).

N stories per language, written from templates in English and in Swahili
(each story's two versions say the same thing), published over ten years, in
the shape the embedded stories are stored in (Strapi 4's `id`/`attributes`),
so the fixture serves them as it serves any stored collection. As Strapi 5
keeps them, each language's version of a story has an `id` of its own and
both share one `documentId`, which the stored item carries beside its `id`.
The ids follow the embedded stories' and never collide with them. (With
`--shape v4` the `documentId` is answered too, which Strapi 4 would not.)

Everything is generated once, at start, from a fixed seed: the same N gives
the same newsroom on every run. The collection is held in memory as
[`Stories`]: a list pre-sorted as the site asks for lists (newest first,
then by id) with indexes of the fields it filters by, so that a page or an
item is answered without a sort or a scan of the whole collection.

Standard library only.
"""
import random
from datetime import date, timedelta

# The embedded stories' categories, as each language names them.
CATEGORIES = {
    "network": ("Network", "Mtandao"),
    "business": ("Business", "Biashara"),
    "results": ("Results", "Matokeo"),
    "sustainability": ("Sustainability", "Uendelevu"),
    "company": ("Company", "Kampuni"),
    "partnerships": ("Partnerships", "Ushirikiano"),
}

# Regions of Tanzania: the same names in both languages.
REGIONS = [
    "Dar es Salaam", "Dodoma", "Mwanza", "Arusha", "Mbeya", "Tanga", "Morogoro", "Iringa", "Kigoma",
    "Tabora", "Mtwara", "Lindi", "Singida", "Shinyanga", "Kagera", "Mara", "Ruvuma", "Njombe", "Geita",
    "Manyara", "Rukwa", "Katavi", "Simiyu", "Songwe", "Pwani", "Kilimanjaro",
]

# Per category: titles, then paragraphs, each an (English, Swahili) pair with
# the same slots: {region}, {other} (another region), {n} (a count), {year}
# (the year it was published).
TITLES = {
    "network": [
        ("4G reaches {n} more villages in {region}", "4G yafikia vijiji {n} zaidi mkoani {region}"),
        ("New fibre route links {region} and {other}", "Njia mpya ya fibre yaunganisha {region} na {other}"),
        ("5G switched on in {n} towns of {region}", "5G yawashwa katika miji {n} ya mkoa wa {region}"),
        ("{n} new sites strengthen coverage in {region}", "Minara mipya {n} yaimarisha mtandao mkoani {region}"),
    ],
    "business": [
        ("{n} traders in {region} move their payments to Lipa kwa Simu", "Wafanyabiashara {n} wa {region} wahamia Lipa kwa Simu"),
        ("Vodacom Business connects {n} schools in {region}", "Vodacom Business yaunganisha shule {n} mkoani {region}"),
        ("{n} small businesses in {region} get cloud accounting", "Biashara ndogo {n} mkoani {region} zapata uhasibu wa wingu"),
    ],
    "results": [
        ("Quarterly update: {n} thousand new M-Pesa customers in {year}", "Taarifa ya robo mwaka: wateja wapya elfu {n} wa M-Pesa mwaka {year}"),
        ("M-Pesa passes {n} thousand agents", "M-Pesa yavuka mawakala elfu {n}"),
        ("Half-year results: revenue up {n} billion shillings to September {year}", "Matokeo ya nusu mwaka: mapato yaongezeka shilingi bilioni {n} hadi Septemba {year}"),
    ],
    "sustainability": [
        ("{n} solar sites cut diesel use in {region}", "Minara {n} ya nishati ya jua yapunguza dizeli mkoani {region}"),
        ("{n} trees planted with pupils in {region}", "Miti {n} yapandwa pamoja na wanafunzi mkoani {region}"),
        ("{n} old phones collected for recycling in {region}", "Simu chakavu {n} zakusanywa ili zirejeshwe mkoani {region}"),
    ],
    "company": [
        ("Shop number {n} opens in {region}", "Duka namba {n} lafunguliwa mkoani {region}"),
        ("Staff volunteers visit {n} clinics in {region}", "Wafanyakazi wa kujitolea watembelea zahanati {n} mkoani {region}"),
        ("Customer care centre in {region} takes {n} calls on its first day", "Kituo cha huduma kwa wateja mkoani {region} chapokea simu {n} siku ya kwanza"),
    ],
    "partnerships": [
        ("{n} farmers in {region} get paid on M-Pesa", "Wakulima {n} wa {region} walipwa kupitia M-Pesa"),
        ("{n} health workers in {region} trained on mobile records", "Wahudumu wa afya {n} mkoani {region} wapata mafunzo ya kumbukumbu kwa simu"),
        ("{n} students in {region} win digital scholarships", "Wanafunzi {n} mkoani {region} washinda ufadhili wa masomo ya kidijitali"),
    ],
}

LEADS = {
    "network": [
        ("Customers in **{region}** can now use fast mobile internet in {n} more villages, after new sites were switched on this month.",
         "Wateja mkoani **{region}** sasa wanaweza kutumia intaneti ya kasi katika vijiji {n} zaidi, baada ya minara mipya kuwashwa mwezi huu."),
        ("A new **fibre route between {region} and {other}** carries calls and data at higher speed and keeps the network up when one link is cut.",
         "Njia mpya ya **fibre kati ya {region} na {other}** inabeba simu na data kwa kasi zaidi na kuuweka mtandao hai njia moja ikikatika."),
    ],
    "business": [
        ("More than {n} traders in **{region}** now take payments with Lipa kwa Simu, without handling cash.",
         "Zaidi ya wafanyabiashara {n} mkoani **{region}** sasa wanapokea malipo kwa Lipa kwa Simu, bila kushika fedha taslimu."),
        ("Vodacom Business has connected **{n} schools in {region}** to the internet, with computers for their libraries.",
         "Vodacom Business imeziunganisha **shule {n} mkoani {region}** na intaneti, pamoja na kompyuta kwa ajili ya maktaba zao."),
    ],
    "results": [
        ("Revenue grew in the period to {year}, led by **data and M-Pesa**, as more customers used smartphones.",
         "Mapato yaliongezeka katika kipindi hadi {year}, yakiongozwa na **data na M-Pesa**, kadri wateja wengi zaidi walivyotumia simu janja."),
        ("The M-Pesa network now counts **{n} thousand agents**, most of them outside the large towns.",
         "Mtandao wa M-Pesa sasa una **mawakala elfu {n}**, wengi wao nje ya miji mikubwa."),
    ],
    "sustainability": [
        ("Sites running on **solar power** in {region} use far less diesel, and need fewer visits by fuel trucks.",
         "Minara inayotumia **nishati ya jua** mkoani {region} inatumia dizeli kidogo zaidi, na inahitaji safari chache za magari ya mafuta."),
        ("Pupils and staff planted **{n} trees** around schools in {region}, each school caring for its own.",
         "Wanafunzi na wafanyakazi walipanda **miti {n}** kuzunguka shule mkoani {region}, kila shule ikitunza miti yake."),
    ],
    "company": [
        ("A new shop in **{region}** offers phones, SIM registration and M-Pesa services six days a week.",
         "Duka jipya mkoani **{region}** linatoa simu, usajili wa laini na huduma za M-Pesa siku sita kwa wiki."),
        ("Staff volunteers spent a week in **{region}**, visiting {n} clinics and helping with repairs.",
         "Wafanyakazi wa kujitolea walikaa wiki moja mkoani **{region}**, wakitembelea zahanati {n} na kusaidia matengenezo."),
    ],
    "partnerships": [
        ("Farmers in **{region}** are now paid for their harvest on M-Pesa, the day they deliver it.",
         "Wakulima mkoani **{region}** sasa wanalipwa mavuno yao kupitia M-Pesa, siku ileile wanayoyawasilisha."),
        ("{n} health workers in **{region}** learnt to keep patients' records on a phone, with help from the Vodacom Foundation.",
         "Wahudumu wa afya {n} mkoani **{region}** walijifunza kuhifadhi kumbukumbu za wagonjwa kwa simu, kwa msaada wa Vodacom Foundation."),
    ],
}

# Paragraphs any story may go on with.
PARAGRAPHS = [
    ("The work was planned with the local government of {region} and took about {n} days on the ground.",
     "Kazi hii ilipangwa pamoja na serikali ya mkoa wa {region} na ilichukua takriban siku {n} kukamilika."),
    ("\"We want every family in {region} to be part of the digital economy,\" said the regional manager.",
     "\"Tunataka kila familia mkoani {region} iwe sehemu ya uchumi wa kidijitali,\" alisema meneja wa mkoa."),
    ("Customers with questions can dial 100 free of charge, or visit any Vodacom shop in {region} and {other}.",
     "Wateja wenye maswali wanaweza kupiga 100 bila malipo, au kutembelea duka lolote la Vodacom mkoani {region} na {other}."),
    ("In the last five years, the number of people using M-Pesa in the region has more than doubled, and most of them now save on their phones too.",
     "Katika miaka mitano iliyopita, idadi ya watu wanaotumia M-Pesa katika mkoa huu imeongezeka zaidi ya mara mbili, na wengi wao sasa huweka akiba kwa simu pia."),
    ("Local leaders in {other} have asked for the same, and a second phase is planned for next year.",
     "Viongozi wa {other} wameomba huduma kama hii, na awamu ya pili imepangwa mwaka ujao."),
    ("Traders say they spend less time travelling to the bank, and keep their money safer than in cash.",
     "Wafanyabiashara wanasema wanatumia muda mchache kusafiri kwenda benki, na fedha zao ziko salama zaidi kuliko taslimu."),
    ("The project employed {n} young people from the area, who were trained on the job and will look after the equipment.",
     "Mradi huu uliajiri vijana {n} wa eneo hilo, waliopewa mafunzo kazini na watakaotunza vifaa hivyo."),
    ("Teachers report that pupils now use online lessons every week, and that attendance has improved.",
     "Walimu wanaeleza kuwa wanafunzi sasa wanatumia masomo ya mtandaoni kila wiki, na mahudhurio yameongezeka."),
    ("Vodacom Tanzania thanks its customers in {region} for their patience while the work was under way.",
     "Vodacom Tanzania inawashukuru wateja wake mkoani {region} kwa uvumilivu wao wakati kazi ikiendelea."),
    ("More details are published on the investor pages and in the annual report for {year}.",
     "Maelezo zaidi yanapatikana kwenye kurasa za wawekezaji na katika ripoti ya mwaka {year}."),
    ("Agents in {region} received new training on **keeping customers' money safe** and on spotting fraud.",
     "Mawakala mkoani {region} walipata mafunzo mapya kuhusu **kulinda fedha za wateja** na kutambua udanganyifu."),
    ("Women's groups in {other} were among the first to sign up, using group savings and small loans on M-Pesa.",
     "Vikundi vya wanawake vya {other} vilikuwa miongoni mwa vya kwanza kujiunga, vikitumia akiba ya pamoja na mikopo midogo kupitia M-Pesa."),
]

SUMMARIES = [
    ("What changes for customers in {region}, and what comes next.", "Kinachobadilika kwa wateja mkoani {region}, na kinachofuata."),
    ("A step forward for {region}, planned with its leaders and people.", "Hatua mbele kwa {region}, iliyopangwa pamoja na viongozi na wananchi wake."),
    ("The figures, the people behind them and the plans for {other}.", "Takwimu, watu walio nyuma yake na mipango kwa ajili ya {other}."),
]

# Ten years of publishing, ending here (fixed, so every run is the same).
LAST_DAY = date(2026, 11, 20)
YEARS = 10


class Stories(list):
    """A collection's stored items pre-sorted newest first, then by id, as the
    site asks for lists, with what the fixture's handler needs to answer
    without sorting or scanning: `where` (an indexed field's items) and
    `ordered` (the items in a stored order)."""

    INDEXED = ("id", "documentId", "slug")

    def __init__(self, items, field_value):
        super().__init__(sorted(items, key=lambda i: (i["attributes"]["publishDate"], i["id"]), reverse=True))
        self.by_id = sorted(self, key=lambda i: i["id"])
        self.index = {field: {} for field in self.INDEXED}
        for item in self:
            for field in self.INDEXED:
                self.index[field].setdefault(str(field_value(item, field)), []).append(item)

    def where(self, field, wanted):
        """The items whose `field` is `wanted`, or None where the field has no index."""
        index = self.index.get(field)
        return None if index is None else list(index.get(wanted, ()))

    def ordered(self, field, direction):
        """The items sorted by `field`, or None where no order is kept for it."""
        if field in ("publishDate", "updatedAt") and direction != "asc":
            return self
        if field == "id":
            return self.by_id if direction == "asc" else self.by_id[::-1]
        return None


def slugify(text):
    words = "".join(c.lower() if c.isalnum() else " " for c in text).split()
    return "-".join(words)


def document_id(rng):
    """A Strapi 5 documentId: 24 lowercase letters and digits."""
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(24))


def generate(stories, embedded, field_value, seed=45):
    """`stories` generated stories per language beside `embedded` (lang ->
    the stored items), as lang -> [`Stories`] of both, indexed by what
    `field_value(item, field)` says (the fixture's reading of a stored item,
    as Strapi's filters see it)."""
    rng = random.Random(seed)
    first = max((item["id"] for items in embedded.values() for item in items), default=0) + 1
    photos = {lang: photos_of(items) for lang, items in embedded.items()}
    made = {lang: list(items) for lang, items in embedded.items()}
    slugs = {lang: {item["attributes"].get("slug") for item in items} for lang, items in embedded.items()}
    days = YEARS * 365
    for n in range(stories):
        category = rng.choice(list(CATEGORIES))
        published = LAST_DAY - timedelta(days=rng.randrange(days))
        region, other = rng.sample(REGIONS, 2)
        slots = {
            "region": region,
            "other": other,
            "n": rng.randrange(3, 400),
            "year": published.year,
        }
        title = rng.choice(TITLES[category])
        lead = rng.choice(LEADS[category])
        summary = rng.choice(SUMMARIES)
        # One story in ten is long, as features and results are.
        count = rng.randint(12, 20) if rng.random() < 0.1 else rng.randint(3, 6)
        paragraphs = [lead] + [rng.choice(PARAGRAPHS) for _ in range(count - 1)]
        photo = rng.randrange(max(len(p) for p in photos.values()) or 1)
        document = document_id(rng)
        for side, lang in enumerate(("en", "sw")):
            if lang not in made:
                continue
            text = title[side].format(**slots)
            slug = slugify(text)
            if slug in slugs[lang]:
                slug = f"{slug}-{n + 1}"
            slugs[lang].add(slug)
            attributes = {
                "title": text,
                "slug": slug,
                "publishDate": published.isoformat(),
                # Strapi keeps when each entry last changed.
                "updatedAt": f"{published.isoformat()}T08:00:00.000Z",
                "summary": summary[side].format(**slots),
                "body": "\n\n".join(p[side].format(**slots) for p in paragraphs),
                "category": CATEGORIES[category][side],
            }
            if photos[lang]:
                attributes["image"] = {"data": photos[lang][photo % len(photos[lang])]}
            made[lang].append({"id": first + 2 * n + side, "documentId": document, "attributes": attributes})
    return {lang: Stories(items, field_value) for lang, items in made.items()}


def photos_of(items):
    """The distinct photos of stored items (their media objects), by id."""
    seen = {}
    for item in items:
        media = (item["attributes"].get("image") or {}).get("data")
        if media:
            seen.setdefault(media["id"], media)
    return [seen[key] for key in sorted(seen)]
