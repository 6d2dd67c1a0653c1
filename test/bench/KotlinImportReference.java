/*
 * The Kotlin compiler's own answer to "which file of this repository does each import lead to".
 *
 * Used by test/bench/polyglot-kotlin.ts as the reference Strata's Kotlin edges are
 * compared with. Run with the source launcher (JDK 17 here), the Kotlin compiler
 * and what it runs on on the class path (Debian's kotlin 1.3.31: a jar with
 * IntelliJ's core in it; L=/usr/share/kotlin/kotlinc/lib):
 *
 *   java -cp $L/kotlin-compiler.jar:$L/trove4j.jar:$L/annotations-13.0.jar:$L/kotlin-stdlib.jar:$L/kotlin-reflect.jar:$L/kotlin-script-runtime.jar \
 *     test/bench/KotlinImportReference.java <repository> <class path of the analyzed code: $L/kotlin-stdlib.jar, ...>
 *
 * The repository's source sets are found by Gradle's layout: each folder
 * `<module>/src/<set>/kotlin` or `<module>/src/<set>/java` is a source set of
 * the module `<module>`, compiled as Gradle compiles it: `main` alone, the
 * module's other sets (`test`, `jmh`, ...) with `main`; in a multiplatform
 * module (`commonMain`, `jvmMain`, `jsMain`, ... and their `…Test`),
 * `commonMain` alone (the metadata compilation: what common code's imports
 * mean), `commonTest` with it, each platform's main set with `commonMain`,
 * and its test set with both mains and `commonTest`. Each set's files' imports
 * are taken from its own compilation. The main sets of the repository's other
 * modules (`main`; `commonMain` and the platform's own) are compiled with it
 * as sources, as a dependency's would be seen (declared lazily, as they are
 * needed), and every `java` folder among them is a Java source root, which
 * the compiler reads through its Java integration.
 *
 * Each compilation is the compiler's own front end: KotlinCoreEnvironment and
 * TopDownAnalyzerFacadeForJVM, the analysis `kotlinc` does before generating
 * code (every file's imports are resolved there). Nothing is written. The JDK
 * is the running one, the class path given (Kotlin's standard library, and
 * jars of dependencies where there are any) is on the class path; what is
 * missing (dependencies not on it) is an error the compiler reports and goes
 * past: those imports lead nowhere.
 *
 * Each import directive of a file the compilation owns is then read from the
 * binding context: the descriptors its last name resolved to
 * (REFERENCE_TARGET, or AMBIGUOUS_REFERENCE_TARGET for a name that is several
 * declarations, as overloads are), each taken to its top-level declaration (a
 * nested class, an object's member, an enum entry: its top-level class), and
 * the source file declaring that (a Kotlin file, or a Java file through its
 * PSI). `import a.b.*` is the package `a.b` (every file declaring something in
 * it that the compilation sees) or, for a class, that class's file. Imports of
 * a file leading to itself are not edges. `.kts` scripts are not compiled.
 *
 * Prints one JSON object: {"compilations": N, "files": [the .kt files compiled], "unowned": N, "errors": N, "edges": [[source, target, import], ...],
 * "outside": N, "unresolved": N}.
 */
import com.intellij.openapi.Disposable;
import com.intellij.openapi.util.Disposer;
import com.intellij.psi.PsiElement;
import com.intellij.psi.PsiFile;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jetbrains.kotlin.analyzer.AnalysisResult;
import org.jetbrains.kotlin.cli.common.CLIConfigurationKeys;
import org.jetbrains.kotlin.cli.common.config.ContentRootsKt;
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageLocation;
import org.jetbrains.kotlin.cli.common.messages.CompilerMessageSeverity;
import org.jetbrains.kotlin.cli.common.messages.MessageCollector;
import org.jetbrains.kotlin.cli.jvm.compiler.EnvironmentConfigFiles;
import org.jetbrains.kotlin.cli.jvm.compiler.KotlinCoreEnvironment;
import org.jetbrains.kotlin.cli.jvm.compiler.NoScopeRecordCliBindingTrace;
import org.jetbrains.kotlin.cli.jvm.compiler.TopDownAnalyzerFacadeForJVM;
import org.jetbrains.kotlin.cli.jvm.config.JvmContentRootsKt;
import org.jetbrains.kotlin.config.ApiVersion;
import org.jetbrains.kotlin.config.CommonConfigurationKeys;
import org.jetbrains.kotlin.config.CommonConfigurationKeysKt;
import org.jetbrains.kotlin.config.CompilerConfiguration;
import org.jetbrains.kotlin.config.JVMConfigurationKeys;
import org.jetbrains.kotlin.config.LanguageFeature;
import org.jetbrains.kotlin.config.LanguageVersion;
import org.jetbrains.kotlin.config.LanguageVersionSettingsImpl;
import org.jetbrains.kotlin.descriptors.DeclarationDescriptor;
import org.jetbrains.kotlin.descriptors.PackageFragmentDescriptor;
import org.jetbrains.kotlin.descriptors.PackageViewDescriptor;
import org.jetbrains.kotlin.diagnostics.Diagnostic;
import org.jetbrains.kotlin.diagnostics.Severity;
import org.jetbrains.kotlin.psi.KtElement;
import org.jetbrains.kotlin.psi.KtExpression;
import org.jetbrains.kotlin.psi.KtFile;
import org.jetbrains.kotlin.psi.KtImportDirective;
import org.jetbrains.kotlin.psi.KtReferenceExpression;
import org.jetbrains.kotlin.psi.psiUtil.KtPsiUtilKt;
import org.jetbrains.kotlin.resolve.BindingContext;
import org.jetbrains.kotlin.resolve.DescriptorToSourceUtils;
import org.jetbrains.kotlin.resolve.lazy.declarations.FileBasedDeclarationProviderFactory;
import org.jetbrains.kotlin.resolve.scopes.DescriptorKindFilter;
import org.jetbrains.kotlin.resolve.scopes.MemberScope;

public class KotlinImportReference {
  static Path repository;
  static final Set<String> edges = new TreeSet<>();
  static int outside = 0;
  static int unresolved = 0;
  static int errors = 0;
  static int owned = 0;

  /** A source set: its folder (repository-relative), module and name. */
  record SourceSet(String module, String name, Path folder) {
    boolean multiplatform() {
      return name.endsWith("Main") || (name.endsWith("Test") && !name.equals("test"));
    }

    String platform() {
      return name.replaceAll("(Main|Test)$", "");
    }

    boolean main() {
      return name.equals("main") || name.endsWith("Main");
    }
  }

  public static void main(String[] args) throws IOException {
    repository = Path.of(args[0]).toRealPath();
    List<File> classPath = new ArrayList<>();
    for (String entry : (args.length > 1 ? args[1] : "").split(":")) if (!entry.isEmpty()) classPath.add(new File(entry));
    Pattern layout = Pattern.compile("^(?:(.*)/)?src/([^/]+)/(?:kotlin|java)$");
    List<SourceSet> sets = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(repository)) {
      for (Path folder : walk.filter(Files::isDirectory).sorted().collect(Collectors.toList())) {
        String relative = repository.relativize(folder).toString().replace('\\', '/');
        if (relative.matches("(^|.*/)(\\.[^/]*|build|node_modules)(/.*|$)")) continue;
        Matcher matcher = layout.matcher(relative);
        if (matcher.matches()) sets.add(new SourceSet(matcher.group(1) == null ? "" : matcher.group(1), matcher.group(2), folder));
      }
    }
    Map<String, List<SourceSet>> modules = new TreeMap<>();
    for (SourceSet set : sets) modules.computeIfAbsent(set.module(), key -> new ArrayList<>()).add(set);
    Set<String> ownedFiles = new TreeSet<>();
    for (Map.Entry<String, List<SourceSet>> module : modules.entrySet()) {
      List<SourceSet> own = module.getValue();
      if (own.stream().noneMatch(SourceSet::multiplatform)) {
        // main, then the other sets (test, jmh, ...) with main.
        List<SourceSet> dependencies = mainSetsOfOthers(modules, module.getKey(), "jvm");
        List<SourceSet> main = own.stream().filter(SourceSet::main).collect(Collectors.toList());
        List<SourceSet> tests = own.stream().filter(set -> !set.main()).collect(Collectors.toList());
        compile(main, List.of(), dependencies, classPath, false, ownedFiles);
        compile(tests, main, dependencies, classPath, false, ownedFiles);
        continue;
      }
      // commonMain alone, commonTest with it; each platform's main with commonMain, its tests with both mains and commonTest.
      List<SourceSet> commonMain = setsOf(own, "common", false);
      List<SourceSet> commonTest = setsOf(own, "common", true);
      compile(commonMain, List.of(), mainSetsOfOthers(modules, module.getKey(), "common"), classPath, true, ownedFiles);
      compile(commonTest, commonMain, mainSetsOfOthers(modules, module.getKey(), "common"), classPath, true, ownedFiles);
      Set<String> platforms = own.stream().filter(SourceSet::multiplatform).map(SourceSet::platform).filter(p -> !p.equals("common")).collect(Collectors.toCollection(TreeSet::new));
      for (String platform : platforms) {
        List<SourceSet> platformMain = setsOf(own, platform, false);
        compile(platformMain, commonMain, mainSetsOfOthers(modules, module.getKey(), platform), classPath, true, ownedFiles);
        List<SourceSet> seen = new ArrayList<>(commonMain);
        seen.addAll(platformMain);
        seen.addAll(commonTest);
        compile(setsOf(own, platform, true), seen, mainSetsOfOthers(modules, module.getKey(), platform), classPath, true, ownedFiles);
      }
      // Sets of neither kind in a multiplatform module (rare): compiled with commonMain, as the JVM's.
      compile(own.stream().filter(set -> !set.multiplatform()).collect(Collectors.toList()), commonMain, mainSetsOfOthers(modules, module.getKey(), "jvm"), classPath, true,
          ownedFiles);
    }
    long kotlinFiles;
    try (Stream<Path> walk = Files.walk(repository)) {
      kotlinFiles = walk.filter(p -> p.toString().endsWith(".kt") && !repository.relativize(p).toString().matches("(^|.*/)(\\.[^/]*|build|node_modules)(/.*|$)")).count();
    }
    System.out.println("{\"compilations\": " + compilations + ", \"files\": [" + ownedFiles.stream().map(KotlinImportReference::json).collect(Collectors.joining(",")) + "], \"unowned\": " + (kotlinFiles - ownedFiles.size())
        + ", \"errors\": " + errors + ", \"outside\": " + outside + ", \"unresolved\": " + unresolved + ", \"edges\": ["
        + edges.stream().map(e -> "[" + e + "]").collect(Collectors.joining(",")) + "]}");
  }

  /** A multiplatform module's sets of `platform`, its main (`<platform>Main`) or test ones (`<platform>Test`). */
  static List<SourceSet> setsOf(List<SourceSet> own, String platform, boolean test) {
    return own.stream().filter(set -> set.multiplatform() && set.platform().equals(platform) && set.main() != test).collect(Collectors.toList());
  }

  /** The main sets of the other modules a compilation for `platform` sees: `main` (JVM), `commonMain`, `<platform>Main`. */
  static List<SourceSet> mainSetsOfOthers(Map<String, List<SourceSet>> modules, String module, String platform) {
    List<SourceSet> found = new ArrayList<>();
    for (Map.Entry<String, List<SourceSet>> other : modules.entrySet()) {
      if (other.getKey().equals(module)) continue;
      for (SourceSet set : other.getValue()) {
        if (!set.main()) continue;
        if (set.name().equals("main") ? platform.equals("jvm") : set.platform().equals("common") || set.platform().equals(platform)) found.add(set);
      }
    }
    return found;
  }

  static int compilations = 0;

  /**
   * One compilation: the `owners`' files, whose imports are recorded, with the module's sets they see (`seen`) and the
   * other modules' main sets (`dependencies`) as sources too. Nothing when `owners` is empty.
   */
  static void compile(List<SourceSet> owners, List<SourceSet> seen, List<SourceSet> dependencies, List<File> classPath, boolean multiplatform, Set<String> ownedFiles) {
    if (owners.isEmpty()) return;
    compilations++;
    long started = System.nanoTime();
    Disposable disposable = Disposer.newDisposable();
    try {
      CompilerConfiguration configuration = new CompilerConfiguration();
      configuration.put(CommonConfigurationKeys.MODULE_NAME, "reference");
      configuration.put(CLIConfigurationKeys.MESSAGE_COLLECTOR_KEY, new MessageCollector() {
        boolean failed = false;

        public void clear() {}

        public void report(CompilerMessageSeverity severity, String message, CompilerMessageLocation location) {
          if (severity.isError()) failed = true;
        }

        public boolean hasErrors() {
          return failed;
        }
      });
      configuration.put(JVMConfigurationKeys.JDK_HOME, new File(System.getProperty("java.home")));
      if (multiplatform) {
        CommonConfigurationKeysKt.setLanguageVersionSettings(configuration, new LanguageVersionSettingsImpl(LanguageVersion.LATEST_STABLE, ApiVersion.LATEST_STABLE,
            Map.of(), Map.of(LanguageFeature.MultiPlatformProjects, LanguageFeature.State.ENABLED)));
      }
      List<SourceSet> all = new ArrayList<>(owners);
      all.addAll(seen);
      all.addAll(dependencies);
      for (SourceSet set : all) {
        ContentRootsKt.addKotlinSourceRoot(configuration, set.folder().toString(), set.multiplatform() && set.platform().equals("common"));
        if (set.folder().getFileName().toString().equals("java")) JvmContentRootsKt.addJavaSourceRoot(configuration, set.folder().toFile());
      }
      JvmContentRootsKt.addJvmClasspathRoots(configuration, classPath);
      KotlinCoreEnvironment environment = KotlinCoreEnvironment.Companion.createForProduction(disposable, configuration, EnvironmentConfigFiles.JVM_CONFIG_FILES);
      List<KtFile> files = environment.getSourceFiles();
      List<KtFile> ownFiles = files.stream().filter(file -> owns(owners, file.getVirtualFile().getPath())).collect(Collectors.toList());
      // The compilation's own files analyzed whole; the dependencies' declared lazily, as they are needed (as the IDE does).
      AnalysisResult result = TopDownAnalyzerFacadeForJVM.analyzeFilesWithJavaIntegration(environment.getProject(), ownFiles, new NoScopeRecordCliBindingTrace(), configuration,
          environment::createPackagePartProvider, (storage, ignored) -> new FileBasedDeclarationProviderFactory(storage, files),
          TopDownAnalyzerFacadeForJVM.INSTANCE.newModuleSearchScope(environment.getProject(), files));
      BindingContext context = result.getBindingContext();
      for (Diagnostic diagnostic : context.getDiagnostics().all()) {
        if (diagnostic.getSeverity() == Severity.ERROR && owns(owners, diagnostic.getPsiFile().getVirtualFile().getPath())) errors++;
      }
      for (KtFile file : ownFiles) {
        String source = relative(file.getVirtualFile().getPath());
        if (source == null) continue;
        ownedFiles.add(source);
        for (KtImportDirective directive : file.getImportDirectives()) record(context, source, directive);
      }
    } finally {
      Disposer.dispose(disposable);
      if (System.getenv("STRATA_BENCH_KOTLIN_DEBUG") != null) System.err.println("compiled " + owners + " in " + (System.nanoTime() - started) / 1000000 + " ms");
    }
  }

  static boolean owns(List<SourceSet> owners, String path) {
    Path file = Path.of(path);
    return owners.stream().anyMatch(set -> file.startsWith(set.folder()));
  }

  static void record(BindingContext context, String source, KtImportDirective directive) {
    KtExpression reference = directive.getImportedReference();
    if (reference == null) return;
    KtElement selector = KtPsiUtilKt.getQualifiedElementSelector(reference);
    if (!(selector instanceof KtReferenceExpression)) {
      unresolved++;
      return;
    }
    List<DeclarationDescriptor> targets = new ArrayList<>();
    DeclarationDescriptor target = context.get(BindingContext.REFERENCE_TARGET, (KtReferenceExpression) selector);
    if (target != null) targets.add(target);
    Collection<? extends DeclarationDescriptor> ambiguous = context.get(BindingContext.AMBIGUOUS_REFERENCE_TARGET, (KtReferenceExpression) selector);
    if (ambiguous != null) targets.addAll(ambiguous);
    List<DeclarationDescriptor> declared = new ArrayList<>();
    for (DeclarationDescriptor descriptor : targets) {
      if (descriptor instanceof PackageViewDescriptor) {
        if (!directive.isAllUnder()) continue;
        MemberScope scope = ((PackageViewDescriptor) descriptor).getMemberScope();
        for (DeclarationDescriptor member : scope.getContributedDescriptors(DescriptorKindFilter.ALL, MemberScope.Companion.getALL_NAME_FILTER())) {
          if (!(member instanceof PackageViewDescriptor)) declared.add(member);
        }
      } else {
        DeclarationDescriptor top = descriptor;
        while (top.getContainingDeclaration() != null && !(top.getContainingDeclaration() instanceof PackageFragmentDescriptor)) top = top.getContainingDeclaration();
        declared.add(top);
      }
    }
    if (declared.isEmpty()) {
      unresolved++;
      if (System.getenv("STRATA_BENCH_KOTLIN_DEBUG") != null) System.err.println("unresolved: " + source + ": " + reference.getText());
      return;
    }
    boolean found = false;
    Set<String> targetFiles = new TreeSet<>();
    for (DeclarationDescriptor descriptor : declared) {
      PsiElement element = DescriptorToSourceUtils.getSourceFromDescriptor(descriptor);
      PsiFile file = element == null ? null : element.getContainingFile();
      if (file == null || file.getVirtualFile() == null) continue;
      String targetFile = relative(file.getVirtualFile().getPath());
      if (targetFile == null) continue;
      found = true;
      targetFiles.add(targetFile);
    }
    if (!found) {
      outside++;
      return;
    }
    String text = directive.getImportPath() == null ? reference.getText() : directive.getImportPath().getPathStr();
    for (String targetFile : targetFiles) if (!targetFile.equals(source)) edges.add(json(source) + "," + json(targetFile) + "," + json(text));
  }

  static String relative(String file) {
    try {
      Path real = Path.of(file).toRealPath();
      return real.startsWith(repository) ? repository.relativize(real).toString().replace('\\', '/') : null;
    } catch (IOException e) {
      return null;
    }
  }

  static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
