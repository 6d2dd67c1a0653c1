/*
 * javac's own answer to "which file of this repository does each import lead to".
 *
 * Used by test/bench/polyglot.bench.ts as the reference Strata's Java edges are
 * compared with. Run with the source launcher (JDK 17 here):
 *
 *   java test/bench/JavaImportReference.java <repository> [<class path>]
 *
 * The repository's Java source sets are found by their layout: each folder
 * holding `src/main/java` or `src/test/java` is a module (Maven's and Gradle's
 * layout). Each module's main and test sources (`src/main/java`, `src/test/java`,
 * and `src/main/java-templates`, which Maven's templating plugin compiles after
 * putting the version in) are compiled together by javac
 * (the compiler API: parsed, entered and attributed, nothing written), with the
 * main sources of the repository's other modules on the source path (javac reads
 * a class from there when the module names it; a class of the module itself
 * wins) and the class path given (jars of the local Maven repository; what is
 * missing is an error javac reports and goes past: those imports lead nowhere).
 * Every import of each file is then asked of javac's attribution (com.sun.source
 * Trees): the element it names, and the source file that declares it:
 * `import a.b.C;` and `import a.b.C.D;` -> the file of C's top-level class,
 * `import static a.b.C.m;` and `import a.b.C.*;` -> C's file,
 * `import a.b.*;` -> every source file that declares a top-level class of
 * package a.b that javac sees from there. module-info.java files are left out.
 *
 * Prints one JSON object: {"modules": N, "files": N, "errors": N, "edges": [[source, target, import], ...],
 * "outside": N, "unresolved": N, "types": {top-level class: file}}.
 */
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaImportReference {
  static Path repository;
  static final Set<String> edges = new TreeSet<>();
  static final Set<String> types = new TreeSet<>();
  static int outside = 0;
  static int unresolved = 0;

  public static void main(String[] args) throws IOException {
    repository = Path.of(args[0]).toRealPath();
    String classPath = args.length > 1 ? args[1] : "";
    List<Path> modules;
    try (Stream<Path> walk = Files.walk(repository)) {
      modules = walk.filter(p -> !p.toString().contains("/.git/"))
          .filter(p -> Files.isDirectory(p.resolve("src/main/java")) || Files.isDirectory(p.resolve("src/test/java")))
          .sorted()
          .collect(Collectors.toList());
    }
    int files = 0;
    int errors = 0;
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    for (Path module : modules) {
      List<Path> sources = new ArrayList<>();
      for (String set : List.of("src/main/java", "src/main/java-templates", "src/test/java")) {
        Path root = module.resolve(set);
        if (!Files.isDirectory(root)) continue;
        try (Stream<Path> walk = Files.walk(root)) {
          walk.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().equals("module-info.java")).forEach(sources::add);
        }
      }
      if (sources.isEmpty()) continue;
      files += sources.size();
      String sourcePath = modules.stream()
          .filter(other -> !other.equals(module))
          .map(other -> other.resolve("src/main/java"))
          .filter(Files::isDirectory)
          .map(Path::toString)
          .collect(Collectors.joining(":"));
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      StandardJavaFileManager fileManager = compiler.getStandardFileManager(diagnostics, null, null);
      List<String> options = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-Xmaxerrs", "100000", "-nowarn"));
      if (!sourcePath.isEmpty()) options.addAll(List.of("-sourcepath", sourcePath));
      if (!classPath.isEmpty()) options.addAll(List.of("-classpath", classPath));
      JavacTask task = (JavacTask) compiler.getTask(null, fileManager, diagnostics, options, null, fileManager.getJavaFileObjectsFromPaths(sources));
      Iterable<? extends CompilationUnitTree> units = task.parse();
      task.analyze();
      errors += (int) diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR).count();
      Trees trees = Trees.instance(task);
      for (CompilationUnitTree unit : units) {
        String source = relative(Path.of(unit.getSourceFile().toUri()));
        for (Tree declaration : unit.getTypeDecls()) {
          Element type = trees.getElement(new TreePath(new TreePath(unit), declaration));
          if (type instanceof TypeElement && source != null) types.add(json(((TypeElement) type).getQualifiedName().toString()) + ": " + json(source));
        }
        for (ImportTree imported : unit.getImports()) {
          MemberSelectTree name = (MemberSelectTree) imported.getQualifiedIdentifier();
          boolean onDemand = name.getIdentifier().contentEquals("*");
          Tree named = onDemand || imported.isStatic() ? name.getExpression() : name;
          Element element = trees.getElement(new TreePath(new TreePath(new TreePath(unit), imported), named));
          List<Element> declared = new ArrayList<>();
          if (element instanceof PackageElement) {
            for (Element member : element.getEnclosedElements()) declared.add(member);
          } else if (element instanceof TypeElement && element.asType().getKind() != javax.lang.model.type.TypeKind.ERROR) {
            Element top = element;
            while (top.getEnclosingElement() != null && top.getEnclosingElement().getKind() != ElementKind.PACKAGE) top = top.getEnclosingElement();
            declared.add(top);
          }
          if (declared.isEmpty()) {
            unresolved++;
            continue;
          }
          boolean found = false;
          for (Element type : declared) {
            TreePath path = trees.getPath(type);
            if (path == null) continue;
            String target = relative(Path.of(path.getCompilationUnit().getSourceFile().toUri()));
            if (target == null) continue;
            found = true;
            if (source != null && !target.equals(source)) edges.add(json(source) + "," + json(target) + "," + json(name.toString()));
          }
          if (!found) outside++;
        }
      }
      fileManager.close();
    }
    System.out.println("{\"modules\": " + modules.size() + ", \"files\": " + files + ", \"errors\": " + errors + ", \"outside\": " + outside
        + ", \"unresolved\": " + unresolved + ", \"types\": {" + String.join(",", types) + "}, \"edges\": [" + edges.stream().map(e -> "[" + e + "]").collect(Collectors.joining(",")) + "]}");
  }

  static String relative(Path file) {
    try {
      Path real = file.toRealPath();
      return real.startsWith(repository) ? repository.relativize(real).toString().replace('\\', '/') : null;
    } catch (IOException e) {
      return null;
    }
  }

  static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
