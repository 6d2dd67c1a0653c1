import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { RepositoryFiles } from './language-import-resolver.js';
import { readOptional } from './read-optional.js';
import { parentOf } from './repository-paths.js';

/** MSBuild project files of C#. */
export const CSHARP_PROJECT = /\.csproj$/i;

/** A project file larger than this is not read (as if it could not be parsed). */
const MAX_PROJECT_BYTES = 1024 * 1024;

/** fast-xml-parser reads no DTD and no external entity; attributes are kept, `ItemGroup` and `ProjectReference` are always lists. */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  isArray: (name) => name === 'ItemGroup' || name === 'ProjectReference',
});

interface ProjectDocument {
  Project?: { ItemGroup?: Array<{ ProjectReference?: Array<{ Include?: unknown }> }> };
}

/**
 * The C# projects of a repository (`.csproj` files) and which see which: a
 * `.cs` file belongs to the project of the nearest folder above it that
 * holds a `.csproj` (an SDK-style project compiles the files below its
 * folder); a project sees its own files and those of the projects its
 * `<ProjectReference Include="...">` items name, transitively (as SDK-style
 * references flow). Files outside every project, and projects that fail to
 * parse, are left unrestricted. Not read: `Directory.Build.props`, explicit
 * `<Compile>` lists of old-style projects, conditions on items.
 */
export class CSharpProjects {
  /** Project folder → the projects in it (usually one). */
  private readonly projectsIn = new Map<string, string[]>();
  /** Project → the projects it references directly; undefined for one that could not be read (it sees everything). */
  private readonly references = new Map<string, string[] | undefined>();
  private readonly visibleCache = new Map<string, ReadonlySet<string>>();

  private constructor() {}

  static discover(root: string, repository: RepositoryFiles): CSharpProjects {
    const projects = new CSharpProjects();
    for (const file of repository.filePaths()) {
      if (!CSHARP_PROJECT.test(file)) continue;
      const folder = parentOf(file);
      const list = projects.projectsIn.get(folder);
      if (list) list.push(file);
      else projects.projectsIn.set(folder, [file]);
      projects.references.set(file, referencesOf(root, file, repository));
    }
    return projects;
  }

  /** Whether both have the same projects with the same references. */
  equals(other: CSharpProjects): boolean {
    return this.fingerprint() === other.fingerprint();
  }

  private fingerprint(): string {
    return JSON.stringify([...this.references].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The projects `file` belongs to (none: outside every project). */
  projectsOf(file: string): readonly string[] {
    for (let folder = parentOf(file); ; folder = parentOf(folder)) {
      const found = this.projectsIn.get(folder);
      if (found) return found;
      if (folder === '') return [];
    }
  }

  /** Whether code in `from` can see the types of `candidate`: always, unless both are in projects and no project of `from` reaches one of `candidate`'s. */
  sees(from: string, candidate: string): boolean {
    const own = this.projectsOf(from);
    const theirs = this.projectsOf(candidate);
    if (own.length === 0 || theirs.length === 0) return true;
    return own.some((project) => {
      if (this.references.get(project) === undefined) return true;
      const visible = this.visibleFrom(project);
      return theirs.some((other) => visible.has(other));
    });
  }

  /** A project and every project it references, transitively. */
  private visibleFrom(project: string): ReadonlySet<string> {
    const cached = this.visibleCache.get(project);
    if (cached) return cached;
    const visible = new Set<string>([project]);
    const queue = [project];
    while (queue.length > 0) {
      for (const next of this.references.get(queue.pop()!) ?? []) {
        if (visible.has(next)) continue;
        visible.add(next);
        queue.push(next);
      }
    }
    this.visibleCache.set(project, visible);
    return visible;
  }
}

/** The repository paths of the projects a project file references (those that exist in the repository); undefined when it cannot be read as XML. */
function referencesOf(root: string, project: string, repository: RepositoryFiles): string[] | undefined {
  let document: ProjectDocument;
  try {
    const xml = readOptional(root, path.join(root, project));
    if (xml === undefined || xml.length > MAX_PROJECT_BYTES) return undefined;
    if (XMLValidator.validate(xml) !== true) return undefined;
    document = parser.parse(xml) as ProjectDocument;
  } catch {
    return undefined;
  }
  const found: string[] = [];
  for (const group of document.Project?.ItemGroup ?? []) {
    for (const reference of group?.ProjectReference ?? []) {
      if (typeof reference?.Include !== 'string') continue;
      // MSBuild writes paths with backslashes, relative to the project's folder.
      const target = path.posix.normalize(path.posix.join(parentOf(project), reference.Include.trim().replaceAll('\\', '/')));
      if (repository.isFile(target)) found.push(target);
    }
  }
  return found;
}
