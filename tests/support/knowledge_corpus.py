"""A small bilingual corpus and question set for retrieval quality (recall@5), written for these tests about public
topics (encyclopedia-style facts), each document a few paragraphs, each question naming the document that answers it.
Some questions share few words with their answer, to show what BM25 alone misses."""

from __future__ import annotations

DOCUMENTS: dict[str, str] = {
    "great_wall.md": "# 长城\n\n长城是中国古代的军事防御工程，东起山海关，西至嘉峪关。\n\n明朝对长城进行了大规模修缮，现存的"
                     "大部分城墙建于明代。长城于1987年被列入世界文化遗产名录。",
    "forbidden_city.md": "# 故宫\n\n故宫位于北京中轴线的中心，是明清两代的皇家宫殿，旧称紫禁城。\n\n故宫始建于明朝永乐四年，"
                         "占地面积约72万平方米，现为故宫博物院。",
    "tea.md": "# 中国茶\n\n中国是茶的故乡。绿茶不经发酵，龙井和碧螺春是著名的绿茶。\n\n乌龙茶属于半发酵茶，红茶是全发酵茶。"
              "普洱茶产于云南。",
    "panda.md": "# 大熊猫\n\n大熊猫主要生活在四川、陕西和甘肃的山区，以竹子为主要食物。\n\n野生大熊猫的数量约为一千八百只，"
                "保护等级已从濒危降为易危。",
    "high_speed_rail.md": "# 中国高铁\n\n京沪高速铁路全长约1318公里，于2011年通车。\n\n复兴号动车组的最高运营时速为350公里，"
                          "是世界上商业运营速度最快的列车之一。",
    "spring_festival.md": "# 春节\n\n春节是农历新年，是中国最重要的传统节日。\n\n除夕夜家人团聚吃年夜饭，北方习惯包饺子，"
                          "人们贴春联、放鞭炮，长辈给孩子压岁钱。",
    "photosynthesis.md": "# Photosynthesis\n\nPhotosynthesis is the process by which green plants use sunlight, water and "
                         "carbon dioxide to make glucose and release oxygen.\n\nIt takes place in the chloroplasts, "
                         "which contain the green pigment chlorophyll.",
    "tcp.md": "# Transmission Control Protocol\n\nTCP provides reliable, ordered delivery of a byte stream between "
              "applications. A connection starts with a three-way handshake: SYN, SYN-ACK, ACK.\n\nLost segments are "
              "retransmitted, and flow control uses a sliding window.",
    "python.md": "# Python\n\nPython is a programming language created by Guido van Rossum and first released in 1991."
                 "\n\nIts design emphasises readability, with significant indentation. CPython is the reference "
                 "implementation, and the Global Interpreter Lock lets only one thread run bytecode at a time.",
    "mars.md": "# Mars\n\nMars is the fourth planet from the Sun. Its red colour comes from iron oxide on its "
               "surface.\n\nOlympus Mons on Mars is the tallest volcano in the Solar System, about 22 km high. Mars "
               "has two small moons, Phobos and Deimos.",
    "vaccines.md": "# Vaccines\n\nA vaccine trains the immune system to recognise a pathogen without causing the "
                   "disease.\n\nEdward Jenner developed the first smallpox vaccine in 1796 using cowpox. mRNA vaccines "
                   "give cells instructions to make a harmless piece of a viral protein.",
    "cars.md": "# Electric cars\n\nAn electric automobile stores energy in a lithium-ion battery pack and drives its "
               "wheels with an electric motor.\n\nRegenerative braking recovers energy when the vehicle slows down.",
    "coffee.md": "# Coffee\n\nCoffee is brewed from roasted coffee beans, the seeds of Coffea plants. Arabica and "
                 "robusta are the two main species.\n\nEspresso is made by forcing hot water through finely ground "
                 "coffee under pressure.",
    "sleep.md": "# Sleep\n\nAdults need about seven to nine hours of rest each night. Sleep has REM and non-REM "
                "stages that repeat in cycles of about 90 minutes.\n\nA regular schedule and a dark, cool room help.",
    "silk_road.md": "# 丝绸之路\n\n丝绸之路是古代连接中国与地中海地区的贸易路线，西汉时张骞出使西域开辟了这条道路。\n\n"
                    "沿途交易的商品有丝绸、瓷器、茶叶和香料。",
    "chinese_calendar.md": "# 二十四节气\n\n二十四节气是中国古代用来指导农事的历法，2016年被列入人类非物质文化遗产。\n\n"
                           "立春是第一个节气，冬至这一天北半球白昼最短。",
}

# (question, the document that answers it)
QUESTIONS: list[tuple[str, str]] = [
    ("长城东起哪里？", "great_wall.md"),
    ("现存长城大多是哪个朝代修建的", "great_wall.md"),
    ("紫禁城是什么时候开始建造的？", "forbidden_city.md"),
    ("龙井属于哪一类茶", "tea.md"),
    ("大熊猫吃什么", "panda.md"),
    ("京沪高铁有多长", "high_speed_rail.md"),
    ("除夕晚上北方人吃什么？", "spring_festival.md"),
    ("张骞出使西域开辟了什么", "silk_road.md"),
    ("冬至有什么特点", "chinese_calendar.md"),
    ("普洱茶产自哪个省", "tea.md"),
    ("复兴号最快能跑多快", "high_speed_rail.md"),
    ("哪个节气是第一个", "chinese_calendar.md"),
    ("What gas do plants release when they make glucose?", "photosynthesis.md"),
    ("How does a TCP connection begin?", "tcp.md"),
    ("Who created the Python language?", "python.md"),
    ("Why is Mars red?", "mars.md"),
    ("What is the tallest volcano in the solar system?", "mars.md"),
    ("Who made the first smallpox vaccine?", "vaccines.md"),
    ("How does a car get energy back when braking?", "cars.md"),
    ("How is espresso made?", "coffee.md"),
    ("How many hours of sleep do adults need?", "sleep.md"),
    ("What is the GIL in CPython?", "python.md"),
    ("How does TCP handle lost data?", "tcp.md"),
    ("Where does photosynthesis happen in the cell?", "photosynthesis.md"),
]
