import { range } from '@strata/extension-git-activity/src/history.ts';
import {
  type BlameRange,
  bandLegend,
  blendColors,
  type ColorBand,
  colorBands,
  definePlugin,
  directoriesAbove,
  InvalidInputError,
  type Legend,
} from '@strata/sdk';
import { clip, MAX_TOP_AUTHORS, mainAuthorBadge, OTHERS, OTHERS_INACTIVE, type ShownAuthor, topAuthorLegend } from './author-labels.ts';
import { authorsFor80Percent, truckFactor } from './knowledge.ts';

interface Params {
  windowMonths?: number;
  inactiveMonths?: number;
  until?: string;
  topAuthors?: number;
}

const GRAY = '#9e9e9e';
/** Distinct, colorblind-aware colors (Okabe-Ito and Tableau), assigned to teams in a stable order. */
const PALETTE = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#ff9da7',
  '#9c755f',
  '#e15759',
];
/** Files per blameMany call, and calls at once: the host runs a few git processes per plugin and queues the rest; cached answers come back at once. */
const BATCH = 50;
const CONCURRENCY = 4;
const LANGUAGES_SKIPPED = new Set(['']);
/** Entries of each list in the summary (top authors, inactive authors, directories with the lowest truck factor). */
const SUMMARY_LIST = 5;

/** Authors holding 80 % of the lines: one is the most concentrated knowledge. */
const SPREAD_BANDS: ColorBand[] = [
  { from: 1, color: '#d73027', label: '1 author holds 80 % of the lines' },
  { from: 2, color: '#fc8d59', label: '2 authors hold 80 %' },
  { from: 3, color: '#fee08b', label: '3–4 authors hold 80 %' },
  { from: 5, color: '#1a9850', label: '5 or more authors hold 80 %' },
];
/** Truck factor: 0 is a directory whose lines mostly have no active author already. */
const TRUCK_BANDS: ColorBand[] = [
  { from: 0, color: '#67001f', label: 'truck factor 0 (most lines: no active author)' },
  { from: 1, color: '#d73027', label: 'truck factor 1' },
  { from: 2, color: '#fc8d59', label: 'truck factor 2' },
  { from: 3, color: '#fee08b', label: 'truck factor 3–4' },
  { from: 5, color: '#1a9850', label: 'truck factor 5 or more' },
];
const spreadColor = colorBands(SPREAD_BANDS);
const truckColor = colorBands(TRUCK_BANDS);

/** Parses the team mapping file of spec 2.7: `{"teams": {"<team>": ["<e-mail>", ...]}}`. */
export function parseTeams(text: string): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`teams: not valid JSON (${(error as Error).message})`);
  }
  const teams = (parsed as { teams?: unknown } | null)?.teams;
  if (typeof teams !== 'object' || teams === null || Array.isArray(teams))
    throw new InvalidInputError('teams: must be {"teams": {"<team>": ["<e-mail>", ...]}}');
  const byEmail = new Map<string, string>();
  for (const [team, members] of Object.entries(teams)) {
    if (!Array.isArray(members) || members.some((member) => typeof member !== 'string'))
      throw new InvalidInputError(`teams: team ${JSON.stringify(team)} must be an array of e-mail addresses`);
    for (const member of members as string[]) {
      const email = member.trim().replace(/^<|>$/g, '').toLowerCase();
      if (!email.includes('@')) throw new InvalidInputError(`teams: ${JSON.stringify(member)} in team ${JSON.stringify(team)} is not an e-mail address`);
      if (byEmail.has(email) && byEmail.get(email) !== team)
        throw new InvalidInputError(`teams: ${email} is in both ${JSON.stringify(byEmail.get(email))} and ${JSON.stringify(team)}`);
      byEmail.set(email, team);
    }
  }
  return byEmail;
}

/** A stable color per team: teams sorted by name take the palette in order (then cycle). */
export function teamColors(teams: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(teams)].sort((a, b) => a.localeCompare(b));
  return new Map(sorted.map((team, index) => [team, PALETTE[index % PALETTE.length]!]));
}

/** Runs `work` on every item, at most `limit` at once. */
async function mapLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** An author of current lines, by e-mail (lower case, after `.mailmap`). */
interface Author {
  email: string;
  /** Lines per name git gave with this e-mail: the name shown is the one on the most. */
  names: Map<string, number>;
  /** Current lines in the repository. */
  lines: number;
  /** Author date of the newest current line, in ms. */
  newestMs: number;
  /** Whether a current line was written in the activity window: a commit of theirs in it. */
  lineInWindow: boolean;
}

/** A percentage with one decimal. */
const percent = (part: number, whole: number): number => Math.round((1000 * part) / whole) / 10;

export default definePlugin<Params>({
  overlays: [
    {
      id: 'teams',
      name: 'Team Ownership',
      type: 'color',
      description: "Each team's share of the current lines (git blame), colors blended by share; gray: no commit in the recent window.",
      legend: { 'no recent commits': GRAY },
    },
    {
      id: 'main-author',
      name: 'Main Author',
      type: 'color',
      description:
        'The author of the most current lines (git blame; directories add up their files). Color: one per top author of the repository, inactive ones apart, the rest "others"; badge: the name and share; value: the share, in %.',
      legend: { [OTHERS.label]: OTHERS.color, [OTHERS_INACTIVE.label]: OTHERS_INACTIVE.color },
    },
    {
      id: 'knowledge-spread',
      name: 'Knowledge Spread',
      type: 'color',
      description: 'The fewest authors, from the one with the most lines down, who hold 80 % of the current lines (git blame). Value: that number of authors.',
      legend: bandLegend(SPREAD_BANDS),
    },
    {
      id: 'truck-factor',
      name: 'Truck Factor',
      type: 'color',
      description:
        "Directories: the fewest active authors whose departure leaves more than half of the current lines without an active author (greedy, most lines first; inactive authors' lines have none already). Value: that number of authors.",
      legend: bandLegend(TRUCK_BANDS),
    },
  ],
  async apply(ctx) {
    const windowMonths = ctx.params.windowMonths ?? 6;
    const windowStart = new Date();
    windowStart.setUTCMonth(windowStart.getUTCMonth() - windowMonths);
    const recent = windowStart.toISOString();
    // The activity window: inactiveMonths months up to until (default now). range() checks the date exists.
    const inactiveMonths = ctx.params.inactiveMonths ?? 6;
    const { until } = range({ until: ctx.params.until });
    const untilMs = Date.parse(until);
    const activeStart = new Date(untilMs);
    activeStart.setUTCMonth(activeStart.getUTCMonth() - inactiveMonths);
    const activeSince = activeStart.toISOString();
    const activeSinceMs = activeStart.getTime();
    const topCount = Math.min(ctx.params.topAuthors ?? 8, MAX_TOP_AUTHORS);

    const teamsText = ctx.inputs.get('teams');
    if (teamsText.length > 1) throw new InvalidInputError('teams: send one team mapping file');
    const teamOf = teamsText.length === 1 ? parseTeams(teamsText[0]!) : undefined;

    const graph = ctx.graph;
    const { kind, kindNames, path, language, languageNames } = graph.nodes;
    const fileKind = kindNames.indexOf('file');
    const directoryKind = kindNames.indexOf('directory');
    const files: number[] = [];
    for (let i = 0; i < graph.nodeCount; i++) if (kind[i] === fileKind && !LANGUAGES_SKIPPED.has(languageNames[language[i]!]!)) files.push(i);

    // Lines per author per node (files, then the directories above them), and
    // whether any line is recent. Each blame is reduced as it arrives: a
    // repository's blames do not fit in the sandbox's memory at once.
    const failures: string[] = [];
    const authorLines: Array<Map<number, number> | undefined> = new Array(graph.nodeCount);
    const hasRecent = new Uint8Array(graph.nodeCount);
    const authors: Author[] = [];
    const authorIndex = new Map<string, number>();
    const dateMs = new Map<string, number>();
    let filesBlamed = 0;
    const batches: number[][] = [];
    for (let k = 0; k < files.length; k += BATCH) batches.push(files.slice(k, k + BATCH));
    const take = (file: number, blame: BlameRange[]): void => {
      if (blame.length === 0) return;
      filesBlamed++;
      const here = new Map<number, number>();
      let recentHere = false;
      for (const run of blame) {
        // Lines not committed yet belong to nobody.
        if (/^0+$/.test(run.hash)) continue;
        const email = run.authorEmail.toLowerCase();
        let index = authorIndex.get(email);
        if (index === undefined) {
          authorIndex.set(email, (index = authors.length));
          authors.push({ email, names: new Map(), lines: 0, newestMs: Number.NEGATIVE_INFINITY, lineInWindow: false });
        }
        const author = authors[index]!;
        author.lines += run.lineCount;
        author.names.set(run.authorName, (author.names.get(run.authorName) ?? 0) + run.lineCount);
        let ms = dateMs.get(run.date);
        if (ms === undefined) dateMs.set(run.date, (ms = Date.parse(run.date)));
        if (ms > author.newestMs) author.newestMs = ms;
        if (ms >= activeSinceMs && ms <= untilMs) author.lineInWindow = true;
        here.set(index, (here.get(index) ?? 0) + run.lineCount);
        if (run.date >= recent) recentHere = true;
      }
      for (const node of [file, ...directoriesAbove(graph, file)]) {
        const total = (authorLines[node] ??= new Map());
        for (const [author, lines] of here) total.set(author, (total.get(author) ?? 0) + lines);
        if (recentHere) hasRecent[node] = 1;
      }
    };
    let asked = 0;
    ctx.progress(0, files.length, 'files blamed');
    const blameBatch = async (batch: number[]): Promise<void> => {
      const answers = await ctx.git.blameMany(batch.map((file) => path[file]!));
      asked += batch.length;
      ctx.progress(asked, files.length, 'files blamed');
      answers.forEach((answer, k) => {
        // Untracked, binary or unreadable: no ownership to show.
        if (answer.error !== undefined || !answer.ranges) failures.push(`${answer.path}: ${answer.error ?? 'no answer'}`);
        else take(batch[k]!, answer.ranges);
      });
    };
    // The first batch alone: when not one of its lines is committed, one look at the log tells whether any commit
    // exists. Without one, no line of any file is owned, and the other files are not asked about.
    const [first, ...rest] = batches;
    let noHistory = false;
    if (first) {
      await blameBatch(first);
      noHistory = authors.length === 0 && (await ctx.git.log({ maxCommits: 1 })).length === 0;
    }
    // Who committed in the activity window, asked while the blames run: an author whose every line of theirs since
    // has been rewritten is active all the same. Reduced to e-mails as it arrives.
    const committedInWindow = new Set<string>();
    let commitsInWindow = 0;
    const windowLog = noHistory
      ? Promise.resolve()
      : ctx.git.log({ since: activeSince, until }).then((commits) => {
          commitsInWindow = commits.length;
          for (const commit of commits) committedInWindow.add(commit.authorEmail.toLowerCase());
        });
    await Promise.all([windowLog, noHistory ? undefined : mapLimit(rest, CONCURRENCY, blameBatch)]);

    const active = authors.map((author) => author.lineInWindow || committedInWindow.has(author.email));
    const unmapped = new Set<string>();
    const teamOfAuthor = authors.map((author) => {
      if (!teamOf) return author.email;
      const team = teamOf.get(author.email);
      if (team === undefined) unmapped.add(author.email);
      return team ?? `unmapped: ${author.email}`;
    });

    // Teams: each team's share, blended.
    const colors = teamColors([...(teamOf?.values() ?? []), ...teamOfAuthor]);
    const overlay = ctx.overlay('teams');
    for (let node = 0; node < graph.nodeCount; node++) {
      const byAuthor = authorLines[node];
      if (!byAuthor || byAuthor.size === 0) continue;
      const shares = new Map<string, number>();
      for (const [author, lines] of byAuthor) shares.set(teamOfAuthor[author]!, (shares.get(teamOfAuthor[author]!) ?? 0) + lines);
      let total = 0;
      let topTeam = '';
      let topLines = 0;
      for (const [team, lines] of shares) {
        total += lines;
        if (lines > topLines || (lines === topLines && team < topTeam)) [topTeam, topLines] = [team, lines];
      }
      const color = hasRecent[node] ? blendColors([...shares].map(([team, lines]) => ({ color: colors.get(team)!, weight: lines }))) : GRAY;
      overlay.set(node, { color, value: percent(topLines, total), badge: shares.size });
    }
    const legend: Legend = {};
    for (const [team, color] of colors) if (Object.keys(legend).length < 63) legend[team] = color;
    legend['no recent commits'] = GRAY;
    overlay.setLegend(legend);

    // Authors as shown: the name on most of their lines; the e-mail beside it where two top authors share a name.
    const byEmail = (a: number, b: number): number => (authors[a]!.email < authors[b]!.email ? -1 : authors[a]!.email > authors[b]!.email ? 1 : 0);
    const ranked = authors.map((_, index) => index).sort((a, b) => authors[b]!.lines - authors[a]!.lines || byEmail(a, b));
    const nameOf = (index: number): string => {
      let best = '';
      let bestLines = -1;
      for (const [given, lines] of authors[index]!.names) {
        const name = given.trim();
        if (lines > bestLines || (lines === bestLines && name < best)) [best, bestLines] = [name, lines];
      }
      return best === '' ? authors[index]!.email : best;
    };
    const names = authors.map((_, index) => nameOf(index));
    const top = ranked.slice(0, topCount);
    const topNames = new Map<string, number>();
    for (const index of top) topNames.set(names[index]!, (topNames.get(names[index]!) ?? 0) + 1);
    const teamSuffix = (index: number): string => {
      const team = teamOf?.get(authors[index]!.email);
      return team === undefined ? '' : ` (${team})`;
    };
    const shownOf = (index: number): ShownAuthor => {
      const name = names[index]!;
      const withEmail = (topNames.get(name) ?? 0) > 1 ? `${name} <${authors[index]!.email}>` : name;
      return { label: `${withEmail}${teamSuffix(index)}`, active: active[index]! };
    };
    const { legend: authorLegend, colors: topColors } = topAuthorLegend(top.map(shownOf));
    const colorOf = new Map(top.map((index, rank) => [index, topColors[rank]!]));

    const mainAuthor = ctx.overlay('main-author');
    const spread = ctx.overlay('knowledge-spread');
    const truck = ctx.overlay('truck-factor');
    const truckFactors: Array<{ node: number; factor: number; lines: number; activeAuthors: number; authors: number }> = [];
    for (let node = 0; node < graph.nodeCount; node++) {
      const byAuthor = authorLines[node];
      if (!byAuthor || byAuthor.size === 0) continue;
      let total = 0;
      let main = -1;
      let mainLines = 0;
      for (const [author, lines] of byAuthor) {
        total += lines;
        if (main < 0 || lines > mainLines || (lines === mainLines && byEmail(author, main) < 0)) [main, mainLines] = [author, lines];
      }
      const share = percent(mainLines, total);
      const color = colorOf.get(main) ?? (active[main] ? OTHERS.color : OTHERS_INACTIVE.color);
      mainAuthor.set(node, { color, value: share, badge: mainAuthorBadge(names[main]!, active[main]!, (100 * mainLines) / total) });

      const holding = authorsFor80Percent([...byAuthor.values()]);
      spread.set(node, { color: spreadColor(holding)!, value: holding, badge: `${holding} author${holding === 1 ? ' holds' : 's hold'} 80 %` });

      if (kind[node] !== directoryKind) continue;
      const activeLines: number[] = [];
      let inactiveLines = 0;
      for (const [author, lines] of byAuthor)
        if (active[author]) activeLines.push(lines);
        else inactiveLines += lines;
      const factor = truckFactor(activeLines, inactiveLines);
      truck.set(node, { color: truckColor(factor)!, value: factor, badge: `truck factor ${factor}` });
      truckFactors.push({ node, factor, lines: total, activeAuthors: activeLines.length, authors: byAuthor.size });
    }
    mainAuthor.setLegend(authorLegend);

    // The repository as a whole: every blamed line once.
    const repositoryLines = authors.reduce((sum, author) => sum + author.lines, 0);
    const inactiveAuthors = ranked.filter((index) => !active[index]);
    const describe = (index: number): string => {
      const author = authors[index]!;
      return `${names[index]} <${author.email}>${teamSuffix(index)}: ${percent(author.lines, repositoryLines)} % of the lines (${author.lines})`;
    };
    const day = (ms: number): string => (Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : 'unknown');
    const summary: Record<string, number | string> = {};
    ranked.slice(0, SUMMARY_LIST).forEach((index, k) => {
      summary[`topAuthor${k + 1}`] = clip(`${describe(index)}${active[index] ? '' : ', inactive'}`, 500);
    });
    inactiveAuthors.slice(0, SUMMARY_LIST).forEach((index, k) => {
      summary[`topInactiveAuthor${k + 1}`] = clip(`${describe(index)}, newest line ${day(authors[index]!.newestMs)}`, 500);
    });
    truckFactors.sort((a, b) => a.factor - b.factor || b.lines - a.lines || (path[a.node]! < path[b.node]! ? -1 : 1));
    truckFactors.slice(0, SUMMARY_LIST).forEach((entry, k) => {
      summary[`lowestTruckFactor${k + 1}`] = clip(
        `${path[entry.node] || '.'}: truck factor ${entry.factor} (${entry.lines} lines, ${entry.activeAuthors} of ${entry.authors} authors active)`,
        500,
      );
    });
    const activeRepositoryLines: number[] = [];
    let inactiveRepositoryLines = 0;
    authors.forEach((author, index) => {
      if (active[index]) activeRepositoryLines.push(author.lines);
      else inactiveRepositoryLines += author.lines;
    });
    return {
      summary: {
        files: files.length,
        filesBlamed,
        authors: authors.length,
        teams: colors.size,
        unmappedAuthors: unmapped.size,
        ...(unmapped.size > 0 && { unmapped: [...unmapped].sort().join(', ').slice(0, 500) }),
        recentSince: recent,
        activeSince,
        activeUntil: until,
        commitsInActiveWindow: commitsInWindow,
        activeAuthors: authors.length - inactiveAuthors.length,
        inactiveAuthors: inactiveAuthors.length,
        ...(authors.length > 0 && {
          repositoryTruckFactor: truckFactor(activeRepositoryLines, inactiveRepositoryLines),
          repositoryAuthorsFor80Percent: authorsFor80Percent(authors.map((author) => author.lines)),
        }),
        ...summary,
        ...(failures.length > 0 && { notBlamed: failures.length, firstNotBlamed: failures[0]!.slice(0, 500) }),
        ...(noHistory
          ? { message: 'no commits at all: no line is owned (the repository has none yet, or is not a git repository)' }
          : filesBlamed > 0 && authors.length === 0 && { message: 'no line of these files is committed yet' }),
      },
    };
  },
});
