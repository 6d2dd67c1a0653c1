import { type BlameRange, blendColors, definePlugin, directoriesAbove, InvalidInputError, type Legend } from '@strata/sdk';

interface Params {
  windowMonths?: number;
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

export default definePlugin<Params>({
  overlays: [
    {
      id: 'teams',
      name: 'Team Ownership',
      type: 'color',
      description: "Each team's share of the current lines (git blame), colors blended by share; gray: no commit in the recent window.",
      legend: { 'no recent commits': GRAY },
    },
  ],
  async apply(ctx) {
    const windowMonths = ctx.params.windowMonths ?? 6;
    const windowStart = new Date();
    windowStart.setUTCMonth(windowStart.getUTCMonth() - windowMonths);
    const recent = windowStart.toISOString();

    const teamsText = ctx.inputs.get('teams');
    if (teamsText.length > 1) throw new InvalidInputError('teams: send one team mapping file');
    const teamOf = teamsText.length === 1 ? parseTeams(teamsText[0]!) : undefined;

    const graph = ctx.graph;
    const { kind, kindNames, path, language, languageNames } = graph.nodes;
    const fileKind = kindNames.indexOf('file');
    const files: number[] = [];
    for (let i = 0; i < graph.nodeCount; i++) if (kind[i] === fileKind && !LANGUAGES_SKIPPED.has(languageNames[language[i]!]!)) files.push(i);

    // Lines per team per node (files, then the directories above them), and
    // whether any line is recent. Each blame is reduced as it arrives: a
    // repository's blames do not fit in the sandbox's memory at once.
    const failures: string[] = [];
    const lineShares: Array<Map<string, number> | undefined> = new Array(graph.nodeCount);
    const hasRecent = new Uint8Array(graph.nodeCount);
    const unmapped = new Set<string>();
    const authors = new Set<string>();
    let filesBlamed = 0;
    const batches: number[][] = [];
    for (let k = 0; k < files.length; k += BATCH) batches.push(files.slice(k, k + BATCH));
    const take = (file: number, blame: BlameRange[]): void => {
      if (blame.length === 0) return;
      filesBlamed++;
      const shares = new Map<string, number>();
      let recentHere = false;
      for (const run of blame) {
        // Lines not committed yet belong to nobody.
        if (/^0+$/.test(run.hash)) continue;
        const email = run.authorEmail.toLowerCase();
        authors.add(email);
        let team = email;
        if (teamOf) {
          const mapped = teamOf.get(email);
          if (mapped === undefined) unmapped.add(email);
          team = mapped ?? `unmapped: ${email}`;
        }
        shares.set(team, (shares.get(team) ?? 0) + run.lineCount);
        if (run.date >= recent) recentHere = true;
      }
      for (const node of [file, ...directoriesAbove(graph, file)]) {
        const total = (lineShares[node] ??= new Map());
        for (const [team, lines] of shares) total.set(team, (total.get(team) ?? 0) + lines);
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
      noHistory = authors.size === 0 && (await ctx.git.log({ maxCommits: 1 })).length === 0;
    }
    if (!noHistory) await mapLimit(rest, CONCURRENCY, blameBatch);

    const colors = teamColors([...(teamOf?.values() ?? []), ...lineShares.flatMap((shares) => (shares ? [...shares.keys()] : []))]);
    const overlay = ctx.overlay('teams');
    for (let node = 0; node < graph.nodeCount; node++) {
      const shares = lineShares[node];
      if (!shares || shares.size === 0) continue;
      let total = 0;
      let topTeam = '';
      let topLines = 0;
      for (const [team, lines] of shares) {
        total += lines;
        if (lines > topLines || (lines === topLines && team < topTeam)) [topTeam, topLines] = [team, lines];
      }
      const color = hasRecent[node] ? blendColors([...shares].map(([team, lines]) => ({ color: colors.get(team)!, weight: lines }))) : GRAY;
      overlay.set(node, { color, value: Math.round((1000 * topLines) / total) / 10, badge: shares.size });
    }
    const legend: Legend = {};
    for (const [team, color] of colors) if (Object.keys(legend).length < 63) legend[team] = color;
    legend['no recent commits'] = GRAY;
    overlay.setLegend(legend);
    return {
      summary: {
        files: files.length,
        filesBlamed,
        authors: authors.size,
        teams: colors.size,
        unmappedAuthors: unmapped.size,
        ...(unmapped.size > 0 && { unmapped: [...unmapped].sort().join(', ').slice(0, 500) }),
        recentSince: recent,
        ...(failures.length > 0 && { notBlamed: failures.length, firstNotBlamed: failures[0]!.slice(0, 500) }),
        ...(noHistory
          ? { message: 'no commits at all: no line is owned (the repository has none yet, or is not a git repository)' }
          : filesBlamed > 0 && authors.size === 0 && { message: 'no line of these files is committed yet' }),
      },
    };
  },
});
