#!/usr/bin/env python3
"""M-Pesa agents and Vodashops across Tanzania's regions, invented but
plausible: real regions, districts, wards and streets at about their real
places, agents scattered around them, a Vodashop in each region's main town.

    tools/locations.py content            # content/collections/locations.json (the embedded sample)
    tools/locations.py csv N > file.csv   # N places, for cms/scripts/import.mjs --locations and the bench

The same seed gives the same places: the committed sample is this script's
output. A place is the same in both languages but for its landmark, which
it has in each (`landmark` and `landmarkSw`; the CSV's `landmark_en` and
`landmark_sw`).
"""
import csv
import json
import math
import random
import sys
from pathlib import Path

# Region: [(district, latitude, longitude, [wards or streets])]
REGIONS = {
    "Dar es Salaam": [
        ("Ilala", -6.8235, 39.2695, ["Kariakoo", "Upanga", "Buguruni", "Gerezani", "Jangwani"]),
        ("Kinondoni", -6.7700, 39.2450, ["Mwananyamala", "Magomeni", "Msasani", "Kawe", "Mikocheni"]),
        ("Temeke", -6.8700, 39.2550, ["Mbagala", "Chang'ombe", "Keko", "Tandika"]),
        ("Ubungo", -6.7800, 39.2050, ["Sinza", "Manzese", "Ubungo", "Kimara"]),
        ("Kigamboni", -6.8500, 39.3100, ["Kigamboni", "Vijibweni", "Kibada"]),
    ],
    "Arusha": [
        ("Arusha City", -3.3670, 36.6830, ["Kaloleni", "Sokon I", "Ngarenaro", "Levolosi"]),
        ("Meru", -3.3900, 36.8300, ["Usa River", "Tengeru"]),
        ("Karatu", -3.3400, 35.6700, ["Karatu", "Mang'ola"]),
    ],
    "Dodoma": [
        ("Dodoma City", -6.1730, 35.7410, ["Majengo", "Kikuyu", "Makole", "Chamwino"]),
        ("Kondoa", -4.9040, 35.7800, ["Kondoa Mjini"]),
        ("Mpwapwa", -6.3500, 36.4800, ["Mpwapwa Mjini"]),
    ],
    "Mwanza": [
        ("Nyamagana", -2.5170, 32.9000, ["Mirongo", "Igogo", "Mkuyuni", "Pamba"]),
        ("Ilemela", -2.4800, 32.9300, ["Kirumba", "Buswelu", "Nyasaka"]),
        ("Sengerema", -2.6500, 32.6400, ["Sengerema Mjini"]),
    ],
    "Mbeya": [
        ("Mbeya City", -8.9000, 33.4600, ["Soweto", "Mwanjelwa", "Iyunga", "Uyole"]),
        ("Rungwe", -9.2500, 33.6500, ["Tukuyu"]),
        ("Chunya", -8.5300, 33.4300, ["Chunya Mjini"]),
    ],
    "Kilimanjaro": [
        ("Moshi", -3.3500, 37.3400, ["Mawenzi", "Kiusa", "Majengo", "Soweto"]),
        ("Hai", -3.2400, 37.2600, ["Bomang'ombe"]),
        ("Rombo", -3.1600, 37.5600, ["Mkuu"]),
    ],
    "Tanga": [
        ("Tanga City", -5.0700, 39.1000, ["Chumbageni", "Ngamiani", "Makorora"]),
        ("Korogwe", -5.1500, 38.4500, ["Korogwe Mjini"]),
        ("Lushoto", -4.7800, 38.2900, ["Lushoto Mjini"]),
    ],
    "Morogoro": [
        ("Morogoro Municipal", -6.8200, 37.6600, ["Mji Mkuu", "Kihonda", "Mazimbu"]),
        ("Kilosa", -6.8300, 36.9900, ["Kilosa Mjini"]),
        ("Kilombero", -8.1300, 36.6800, ["Ifakara"]),
    ],
    "Pwani": [
        ("Kibaha", -6.7700, 38.9200, ["Kibaha Mjini", "Mlandizi"]),
        ("Bagamoyo", -6.4400, 38.9000, ["Dunda", "Magomeni"]),
        ("Mkuranga", -7.1200, 39.2000, ["Mkuranga Mjini"]),
    ],
    "Iringa": [
        ("Iringa Municipal", -7.7700, 35.6900, ["Mshindo", "Kihesa", "Gangilonga"]),
        ("Mufindi", -8.6000, 35.3000, ["Mafinga"]),
    ],
    "Njombe": [("Njombe Town", -9.3300, 34.7700, ["Njombe Mjini"]), ("Makambako", -8.8500, 34.8300, ["Makambako Mjini"])],
    "Ruvuma": [("Songea", -10.6800, 35.6500, ["Majengo", "Bombambili"]), ("Mbinga", -10.9300, 35.0200, ["Mbinga Mjini"])],
    "Mtwara": [("Mtwara Mikindani", -10.2700, 40.1800, ["Chikongola", "Shangani"]), ("Masasi", -10.7200, 38.8000, ["Masasi Mjini"])],
    "Lindi": [("Lindi Municipal", -10.0000, 39.7100, ["Lindi Mjini"]), ("Nachingwea", -10.3700, 38.7700, ["Nachingwea Mjini"])],
    "Singida": [("Singida Municipal", -4.8200, 34.7500, ["Singida Mjini"]), ("Manyoni", -5.7500, 34.8300, ["Manyoni Mjini"])],
    "Tabora": [
        ("Tabora Municipal", -5.0200, 32.8000, ["Gongoni", "Cheyo"]),
        ("Nzega", -4.2100, 33.1800, ["Nzega Mjini"]),
        ("Urambo", -5.0700, 32.0500, ["Urambo Mjini"]),
    ],
    "Shinyanga": [("Shinyanga Municipal", -3.6600, 33.4200, ["Shinyanga Mjini"]), ("Kahama", -3.8400, 32.6000, ["Kahama Mjini"])],
    "Simiyu": [("Bariadi", -2.8000, 33.9800, ["Bariadi Mjini"]), ("Maswa", -3.1800, 33.7800, ["Maswa Mjini"])],
    "Geita": [("Geita Town", -2.8700, 32.2300, ["Geita Mjini"]), ("Chato", -2.6400, 31.7600, ["Chato Mjini"])],
    "Kagera": [
        ("Bukoba", -1.3300, 31.8100, ["Hamugembe", "Kashai"]),
        ("Karagwe", -1.5500, 31.1500, ["Kayanga"]),
        ("Muleba", -1.8400, 31.6600, ["Muleba Mjini"]),
    ],
    "Mara": [
        ("Musoma", -1.5000, 33.8000, ["Mwigobero", "Nyakato"]),
        ("Tarime", -1.3500, 34.3700, ["Tarime Mjini"]),
        ("Serengeti", -1.8600, 34.7000, ["Mugumu"]),
    ],
    "Kigoma": [
        ("Kigoma Ujiji", -4.8800, 29.6300, ["Mwanga", "Ujiji"]),
        ("Kasulu", -4.5800, 30.1000, ["Kasulu Mjini"]),
        ("Kibondo", -3.5900, 30.7200, ["Kibondo Mjini"]),
    ],
    "Katavi": [("Mpanda", -6.3400, 31.0700, ["Mpanda Mjini"])],
    "Rukwa": [("Sumbawanga", -7.9700, 31.6200, ["Sumbawanga Mjini"]), ("Nkasi", -7.5000, 31.0500, ["Namanyere"])],
    "Songwe": [("Mbozi", -9.1100, 32.9300, ["Vwawa"]), ("Tunduma", -9.3000, 32.7700, ["Tunduma Mjini"])],
    "Manyara": [("Babati", -4.2100, 35.7500, ["Babati Mjini"]), ("Mbulu", -3.8500, 35.5400, ["Mbulu Mjini"])],
    "Mjini Magharibi": [("Mjini", -6.1600, 39.1900, ["Darajani", "Mwembeladu", "Stone Town"]), ("Magharibi", -6.2000, 39.2200, ["Mwera", "Fuoni"])],
    "Kaskazini Unguja": [("Kaskazini A", -5.7300, 39.2900, ["Nungwi", "Mkokotoni"])],
    "Kusini Unguja": [("Kusini", -6.4200, 39.5500, ["Makunduchi"])],
    "Kaskazini Pemba": [("Wete", -5.0600, 39.7200, ["Wete Mjini"])],
    "Kusini Pemba": [("Chake Chake", -5.2500, 39.7700, ["Chake Chake Mjini"])],
}

OWNERS = ["Amani", "Baraka", "Neema", "Upendo", "Tumaini", "Rehema", "Zawadi", "Juma", "Hamisi", "Mussa", "Salma", "Halima", "Faraja", "Imani", "Jabiri", "Mwanaidi", "Kassim", "Saida", "Elia", "Grace"]
TRADES = ["Shop", "General Store", "Mobile Money", "Kiosk", "Stationery", "Enterprises", "Supermarket", "Hardware", "Pharmacy", "Investment"]
LANDMARKS = [
    ("Opposite the market", "Mkabala na soko"),
    ("Next to the bus stand", "Jirani na stendi ya mabasi"),
    ("Near the mosque", "Karibu na msikiti"),
    ("Beside the police station", "Kando ya kituo cha polisi"),
    ("Near the hospital", "Karibu na hospitali"),
    ("Opposite the primary school", "Mkabala na shule ya msingi"),
    ("At the petrol station", "Kwenye kituo cha mafuta"),
    ("Near the church", "Karibu na kanisa"),
    ("On the main road", "Barabara kuu"),
    ("", ""),
]
AGENT_HOURS = [
    ("07:00-21:00", "07:00-21:00", "09:00-18:00"),
    ("08:00-20:00", "08:00-18:00", ""),
    ("06:30-22:00", "06:30-22:00", "08:00-20:00"),
    ("24h", "24h", "24h"),
    ("08:00-19:00", "08:00-14:00", ""),
]
SHOP_HOURS = ("08:00-17:00", "09:00-14:00", "")
AGENT_SERVICES = [["cash-in", "cash-out"], ["cash-in", "cash-out", "lipa"], ["cash-in", "cash-out", "lipa", "sim-registration"]]
SHOP_SERVICES = ["cash-in", "cash-out", "lipa", "sim-registration", "devices"]


def places(agents_per_street, rng):
    """(id, fields, landmark pair) for every place."""
    n = 0
    for region, districts in REGIONS.items():
        for d, (district, lat, lng, streets) in enumerate(districts):
            if d == 0:
                n += 1
                yield n, {
                    "name": f"Vodashop {district}",
                    "kind": "shop",
                    "region": region,
                    "district": district,
                    "street": streets[0],
                    "latitude": round(lat + rng.uniform(-0.004, 0.004), 5),
                    "longitude": round(lng + rng.uniform(-0.004, 0.004), 5),
                    "services": SHOP_SERVICES,
                    "hoursWeekdays": SHOP_HOURS[0],
                    "hoursSaturday": SHOP_HOURS[1],
                    "hoursSunday": SHOP_HOURS[2],
                    "phone": "0754 100 100",
                }, ("In the town centre", "Katikati ya mji")
            for s, street in enumerate(streets):
                # Streets of a district a few hundred metres to a few kilometres apart.
                angle = s * 2.4
                centre = (lat + 0.012 * s * math.sin(angle), lng + 0.012 * s * math.cos(angle))
                for _ in range(agents_per_street(region, district)):
                    n += 1
                    hours = rng.choice(AGENT_HOURS)
                    yield n, {
                        "name": f"{rng.choice(OWNERS)} {rng.choice(TRADES)}",
                        "kind": "agent",
                        "region": region,
                        "district": district,
                        "street": street,
                        "latitude": round(centre[0] + rng.gauss(0, 0.006), 5),
                        "longitude": round(centre[1] + rng.gauss(0, 0.006), 5),
                        "services": rng.choice(AGENT_SERVICES),
                        "hoursWeekdays": hours[0],
                        "hoursSaturday": hours[1],
                        "hoursSunday": hours[2],
                        "phone": f"07{rng.choice('1456')}{rng.randrange(10**7):07d}",
                    }, rng.choice(LANDMARKS)


def content():
    rng = random.Random(38)
    sample = list(places(lambda region, _district: 3 if region == "Dar es Salaam" else 2, rng))
    path = Path(__file__).resolve().parent.parent / "content" / "collections" / "locations.json"
    items = [{"id": n, "attributes": {**fields, "landmark": landmark[0] or None, "landmarkSw": landmark[1] or None}} for n, fields, landmark in sample]
    body = ",\n".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in items)
    meta = json.dumps({"pagination": {"page": 1, "pageSize": len(items), "pageCount": 1, "total": len(items)}})
    path.parent.mkdir(exist_ok=True)
    path.write_text(f'{{"data":[\n{body}\n],"meta":{meta}}}\n', encoding="utf-8")
    print(f"{len(sample)} places in content/collections/locations.json", file=sys.stderr)


def csv_rows(count):
    rng = random.Random(180_000)
    streets = sum(len(streets) for districts in REGIONS.values() for *_, streets in districts)
    # Dar es Salaam has a third of the agents, as mobile money does.
    per = max(1, count // streets)
    generated = places(lambda region, _d: per * 4 if region == "Dar es Salaam" else per * 3 // 4 or 1, rng)
    writer = csv.writer(sys.stdout)
    writer.writerow(["id", "name", "kind", "region", "district", "street", "landmark_en", "landmark_sw", "latitude", "longitude", "services", "hoursWeekdays", "hoursSaturday", "hoursSunday", "phone"])
    written = 0
    while written < count:
        for _, fields, landmark in generated:
            written += 1
            writer.writerow([written, fields["name"], fields["kind"], fields["region"], fields["district"], fields["street"], landmark[0], landmark[1],
                             fields["latitude"], fields["longitude"], ";".join(fields["services"]), fields["hoursWeekdays"], fields["hoursSaturday"],
                             fields["hoursSunday"], fields["phone"]])
            if written == count:
                return
        generated = places(lambda region, _d: per, rng)


if __name__ == "__main__":
    if sys.argv[1:2] == ["content"]:
        content()
    elif sys.argv[1:2] == ["csv"] and len(sys.argv) == 3:
        csv_rows(int(sys.argv[2]))
    else:
        sys.exit(__doc__)
