/**
 * Generic vocabulary the name reader knows: ISO codes (country prefixes and hints), quality and
 * format tags, iptv-org's notes, words that say "a channel" in many languages, and the
 * Cyrillic and Greek transliteration tables. No channel name is listed here: what identifies a
 * channel is whatever a name holds besides these.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter((w) => w !== ''));

/** ISO 3166-1 alpha-2 country codes, with `uk` and `el` as providers write them. */
export const COUNTRY2 = set(`
  ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz
  ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh er es et fi fj fk fm fo fr
  ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo
  jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr
  ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro
  rs ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv
  tw tz ua ug um us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw uk xk
`);

/** ISO 3166-1 alpha-3 codes and the three-letter forms providers use (`GER`, `SUI`, `POR`). */
export const COUNTRY3 = set(`
  afg alb dza and ago arg arm aus aut aze bhs bhr bgd blr bel blz ben btn bol bih bwa bra brn bgr bfa bdi khm cmr can
  cpv caf tcd chl chn col com cog cod cri civ hrv cub cyp cze dnk dji dma dom ecu egy slv gnq eri est swz eth fji fin
  fra gab gmb geo deu gha grc grd gtm gin gnb guy hti hnd hun isl ind idn irn irq irl isr ita jam jpn jor kaz ken kir
  prk kor kwt kgz lao lva lbn lso lbr lby lie ltu lux mdg mwi mys mdv mli mlt mhl mrt mus mex fsm mda mco mng mne mar
  moz mmr nam nru npl nld nzl nic ner nga mkd nor omn pak plw pse pan png pry per phl pol prt qat rou rus rwa kna lca
  vct wsm smr stp sau sen srb syc sle sgp svk svn slb som zaf ssd esp lka sdn sur swe che syr twn tjk tza tha tls tgo
  ton tto tun tur tkm tuv uga ukr are gbr usa ury uzb vut ven vnm yem zmb zwe hkg mac pri
  ger sui por den ned gre bul cro slo rom lat pur uae ksa
`);

/** ISO 639-1 language codes (a prefix such as `AR: ` names Arabic as often as Argentina). */
export const LANGUAGE2 = set(`
  aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo
  es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka
  kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng
  nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su
  sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
`);

/** Regions providers group channels under, written like a country prefix. */
/**
 * ISO 639-2 codes of languages panels prefix names with (`ENG: `, `GER | `), beyond those that are
 * also countries' codes: a prefix only, never a hint of a country.
 */
export const LANGUAGE3 = set(`
  eng fre ger spa por ara tur dut gre ell heb hin urd per fas chi zho jpn kor vie may msa rum ron cze ces
  slo slk srp bos bul ukr sqi mac lit lav kur tam tel ben pun tgl fil
`);

export const REGIONS = set(
  'exyu ex-yu latam latino arab arabic afr africa asia eu europe intl int world nordic balkan',
);

/**
 * Tags that describe a stream, not a channel: resolutions, codecs, frame rates, quality words and
 * the marks panels add (`VIP`, `RAW`, `Backup`). Matched against whole words of the lower-cased
 * name; `hd` glued to a name (`Novasports5HD`) is dropped as a token of its own.
 */
export const QUALITY_WORDS = set(`
  hd fhd uhd qhd shd sd hq lq hdtv fullhd ultrahd hdr hdr10 sdr 4k 8k 2k 1k hevc avc h264 h265 x264 x265 264 265 av1
  vp9 mpeg2 mpeg4 raw vip backup bkp alt orig original 10bit 8bit multiaudio multisub dolby atmos dts aac ac3 hls
  mp4 ts m3u8 low mid high fps
`);

/** Quality and format tags of several words or with digits, as regular expressions (whole words). */
export const QUALITY_PATTERNS: readonly RegExp[] = [
  /^\d{3,4}[pi](?:\d{2,3})?$/, // 1080p, 576i, 1080p50
  /^\d{2,3}fps$/, // 50fps
  /^[hx]26[45]$/,
  /^(?:[fuq]?hd|sd)\d*\+?$/, // hd+, fhd2 (a panel's second copy)
];

/**
 * Phrases of several words that are tags as a whole (`Full HD`, `50 FPS`), and a codec written
 * with any one character between its letter and number (`H.265`, `H 265`, `h_264`, `x-265`).
 */
export const QUALITY_PHRASES =
  /(?<![\p{L}\p{N}])(?:full\s+hd|ultra\s+hd|uhd\s+4k|\d{2,3}\s+fps|[hx][^\p{L}\p{N}]?26[45]|hd\s*\+|ᴴᴰ|dolby\s+vision)(?![\p{L}\p{N}])/gu;

/** iptv-org's notes and panels' labels in brackets: not part of the name. */
export const NOTE_WORDS = set(`
  geo geoblocked geo-blocked blocked not 24/7 247 24 7 offline online timeout backup test beta new hot live
  opt option source server link feed alt multi audio sub subs subtitles dub dubbed vip raw
`);

/**
 * Words that say "a channel" or "television" in many languages, and small function words: they
 * tell little about which channel a name means, so they weigh little (never nothing: `RT` and
 * `RT TV` still differ by one).
 */
export const WEAK_WORDS = set(`
  tv tele tel teve tvs television televisión televisao televisão televizija televisio televizia telewizja
  channel channels chanel canal canale kanal kanali kanaal network networks net station stations
  telekanal kanala program programme tb tiv kanał chaine csatorna ชอง قناة
  the a an of and de del da do dos das di du des la le les el il lo los las et und y e en in on at i
  live
`);

/**
 * Words that say "channel", as names spell them (Thai `ช่อง` once its tone mark is dropped):
 * `Channel 8`, `8 канал` and `ช่อง 8` are one name.
 */
export const CHANNEL_WORDS = set(`
  channel chanel canal canale canali kanal kanali kanaal kanał kanala telekanal chaine csatorna ชอง قناة
`);

/** Words that say "television" (`TV`, `Televizija`, and `ТВ` read as `TB`): one word, however spelled (form.ts, loose). */
export const TV_WORDS = set(`
  tv tele teve television televisión televisao televisão televizija televisio televizia telewizja tb tiv
`);

/**
 * Number words read as digits: English (`BBC One` is `BBC 1`), and Russian and Ukrainian
 * ordinals as transliterated (`Первый канал` is `Channel One`, `Пятый канал` is `5 Канал`).
 */
export const NUMBER_WORDS: ReadonlyMap<string, string> = new Map([
  ['zero', '0'],
  ['one', '1'],
  ['two', '2'],
  ['three', '3'],
  ['four', '4'],
  ['five', '5'],
  ['six', '6'],
  ['seven', '7'],
  ['eight', '8'],
  ['nine', '9'],
  ['ten', '10'],
  // `Canal Plus` is `Canal+`, `Феникс плюс Кино` is `Феникс+Кино`.
  ['plus', '+'],
  ['plyus', '+'],
  ...ordinals('1', 'pervyi pervyy perviy pershii pershyi pershiy'),
  ...ordinals('2', 'vtoroi vtoroy druhii druhyi'),
  ...ordinals('3', 'tretii tretiy tretyi'),
  ...ordinals('4', 'chetvertyi chetvertyy chetvertii'),
  ...ordinals('5', 'pyatyi pyatyy pyatiy piatyi piatyy'),
  ...ordinals('6', 'shestoi shestoy shostyi'),
  ...ordinals('7', 'sedmoi sedmoy somyi'),
  ...ordinals('8', 'vosmoi vosmoy vosmyi'),
  ...ordinals('9', 'devyatyi devyatyy deviatyi'),
  ...ordinals('10', 'desyatyi desyatyy desiatyi'),
]);

function ordinals(digit: string, words: string): [string, string][] {
  return words.split(' ').map((w) => [w, digit]);
}

/** Cyrillic (Russian, Ukrainian, Belarusian, Serbian, Macedonian, Bulgarian) to Latin. */
export const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  є: 'ye',
  і: 'i',
  ї: 'yi',
  ґ: 'g',
  ў: 'u',
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'gj',
  ќ: 'kj',
  ѕ: 'dz',
};

/** Greek (monotonic, accents already removed) to Latin. */
export const GREEK: Readonly<Record<string, string>> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

/**
 * Words that name a time-zone feed of one channel (`A&E East`, `NBC - Eastern Feed`, `Syfy -
 * Pacific Feed`): a display name that adds them names the same channel as the name without them,
 * so a guide name's unmatched time-zone words do not count against a match.
 */
export const TIME_FEED_WORDS = set('east west eastern western pacific feed');

/**
 * Words that name a place, a region, a language or a feed (`Latin America`, `Tamil`, `East`,
 * `International`): a playlist name that adds them to a guide name (`Lifetime Latin America`,
 * `Россия 1 (Ставрополь)` in brackets) names a feed of that channel, unless the guide itself
 * tells such variants apart (then they are as much the name as any word).
 */
export const FEED_WORDS = set(`
  america americas american latin latino latina latinoamerica latam north south east west central eastern western
  northern southern pacific atlantic mountain europe european euro asia asian africa african oceania caribbean
  middle mena apac emea nordic scandinavia balkan balkans arabia arab gulf international internacional
  internacionale intl global national nacional regional local feed
  afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas bahrain
  bangladesh belarus belgium belgique belgie belize benin bhutan bolivia bosnia botswana brazil brasil brunei
  bulgaria burkina burundi cambodia cameroon canada chad chile china colombia comoros congo croatia hrvatska cuba
  cyprus czech czechia denmark danmark djibouti dominica dominicana ecuador egypt salvador eritrea estonia eesti
  ethiopia fiji finland suomi france gabon gambia georgia germany deutschland ghana greece hellas grenada guatemala
  guinea guyana haiti honduras hungary magyarorszag iceland india indonesia iran iraq ireland eire israel italy
  italia jamaica japan jordan kazakhstan kenya kosovo kuwait kyrgyzstan laos latvia lebanon lesotho liberia libya
  liechtenstein lithuania lietuva luxembourg madagascar malawi malaysia maldives mali malta mauritania mauritius
  mexico moldova monaco mongolia montenegro morocco maroc mozambique myanmar namibia nepal netherlands nederland
  holland zealand nicaragua niger nigeria macedonia norway norge oman pakistan palestine panama paraguay peru
  philippines pilipinas poland polska portugal qatar romania russia rossiya rwanda samoa senegal serbia srbija
  seychelles sierra singapore slovakia slovenia slovenija somalia espana spain sudan suriname sweden sverige
  switzerland schweiz suisse svizzera syria taiwan tajikistan tanzania thailand togo tonga trinidad tobago tunisia
  turkey turkiye turkmenistan uganda ukraine ukraina emirates uae kingdom britain england scotland wales ulster
  usa uruguay uzbekistan venezuela vietnam yemen zambia zimbabwe
  english french francais german deutsch spanish espanol castellano portuguese portugues italian italiano russian
  russkiy arabic arabi turkish persian farsi hindi urdu bengali bangla tamil telugu kannada malayalam marathi
  gujarati punjabi odia oriya bhojpuri assamese chinese mandarin cantonese japanese korean thai vietnamese
  indonesian malay filipino tagalog dutch flemish polish czech slovak hungarian romanian bulgarian serbian croatian
  bosnian slovenian macedonian albanian greek hebrew ukrainian swedish norwegian danish finnish estonian latvian
  lithuanian armenian georgian kurdish swahili amharic somali hausa yoruba
`);
