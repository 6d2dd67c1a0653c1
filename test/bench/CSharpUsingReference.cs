// The C# compiler's own view of a project's using directives, for
// `npm run bench:polyglot` (test/bench/polyglot-csharp.ts): Mono's C# compiler
// (mcs.exe, used as a library) runs on the command line MSBuild (xbuild) gave
// it for the project, as far as binding the using directives: it parses every
// source file (preprocessor conditions evaluated with the project's defines),
// loads the referenced assemblies, and defines the namespaces and types, which
// binds each using directive as C# says (a using in `namespace A.B { }` looks
// in A.B, then A, then the global namespace; an alias without the other
// usings). Nothing is emitted. Prints JSON:
//
//   sources     the files compiled (full paths)
//   errors      the compiler's error codes and counts (CS0246: a namespace or type not found)
//   namespaces  [file, namespace, types]: each namespace declaration of each file,
//               by its full name ("" for the file's global part), and how many
//               types it declares directly
//   types       [file, type]: each top-level type declaration (a part of a
//               partial type too), `Namespace.Name` with "`arity" for a generic
//   usings      [file, line, kind, written, result]: kind namespace, static or
//               alias; result "namespace:A.B", "type:A.B.C" (a top-level type:
//               a nested type's outermost), or "" when the compiler found nothing
//
// Build: mcs -r:/usr/lib/mono/4.5/mcs.exe CSharpUsingReference.cs
// Run:   mono CSharpUsingReference.exe <project folder> <response file of mcs's arguments>
//
// Driver.Compile's own steps (mono 6.8, the STATIC build: references read with
// IKVM.Reflection as mcs.exe reads them), up to and including module.Define(),
// with the using directives noted between the parse and the definition: the
// definition drops those it could not bind and moves the aliases elsewhere.
// The compiler's internal classes are reached by reflection.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using Mono.CSharp;

class CSharpUsingReference
{
	const BindingFlags Any = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
	static readonly Assembly Compiler = typeof (CompilerSettings).Assembly;

	class Printer : ReportPrinter
	{
		public readonly Dictionary<string, int> Errors = new Dictionary<string, int> ();
		public readonly List<string> Samples = new List<string> ();

		public override void Print (AbstractMessage msg, bool showFullPath)
		{
			// Counts the message (the compiler stops at its FatalCounter-th error when the count stays 0).
			base.Print (msg, showFullPath);
			if (msg.IsWarning)
				return;
			var code = "CS" + msg.Code.ToString ("0000");
			int count;
			Errors.TryGetValue (code, out count);
			Errors[code] = count + 1;
			if (Samples.Count < 20)
				Samples.Add (msg.Location.Name + "(" + msg.Location.Row + "): " + code + " " + msg.Text);
		}
	}

	class Using
	{
		public string File;
		public int Line;
		public string Kind;
		public string Written;
		public UsingClause Clause;
	}

	static int Main (string[] args)
	{
		Directory.SetCurrentDirectory (args[0]);
		var settings = new CommandLineParser (Console.Error).ParseArguments (new[] { "@" + Path.GetFullPath (args[1]) });
		if (settings == null)
			return 2;
		settings.DocumentationFile = null;
		var printer = new Printer ();
		var ctx = new CompilerContext (settings, printer);
		var timer = New ("TimeReporter", false);
		ctx.GetType ().GetProperty ("TimeReporter", Any).SetValue (ctx, timer);

		var driver = New ("Driver", ctx);
		var module = new ModuleContainer (ctx);
		RootContext.ToplevelTypes = module;
		Invoke (driver, "Parse", module);
		var parseErrors = ctx.Report.Errors;

		// What the parse made: per file, its namespace declarations, types and using directives.
		var namespaces = new List<Tuple<string, NamespaceContainer>> ();
		var types = new List<Tuple<string, NamespaceContainer, TypeContainer>> ();
		var usings = new List<Using> ();
		foreach (var container in module.Containers) {
			var file = container as CompilationSourceFile;
			if (file == null)
				continue;
			Walk (file.SourceFile.OriginalFullPathName, file, namespaces, types, usings);
		}

		// The rest of Driver.Compile up to the definition of the module.
		var importer = New ("StaticImporter", module);
		var loader = New ("StaticLoader", importer, ctx);
		var output = Path.Combine (Path.GetTempPath (), "strata-bench-csharp.dll");
		var assembly = New ("AssemblyDefinitionStatic", module, loader, Path.GetFileName (output), output);
		Invoke (assembly, "Create", Get (loader, "Domain"));
		module.CreateContainer ();
		Invoke (importer, "AddCompiledAssembly", assembly);
		loader.GetType ().GetProperty ("CompiledAssembly", Any).SetValue (loader, assembly);
		Invoke (loader, "LoadReferences", module);
		var defined = false;
		if (ctx.BuiltinTypes.CheckDefinitions (module)) {
			Invoke (loader, "LoadModules", assembly, module.GlobalRootNamespace);
			module.InitializePredefinedTypes ();
			module.Define ();
			defined = true;
		}

		var json = new StringBuilder ();
		json.Append ("{\"defined\":").Append (defined ? "true" : "false");
		json.Append (",\"parseErrors\":").Append (parseErrors);
		json.Append (",\"sources\":[").Append (string.Join (",", ctx.SourceFiles.Select (f => Quote (f.OriginalFullPathName)))).Append ("]");
		json.Append (",\"errors\":{").Append (string.Join (",", printer.Errors.OrderBy (e => e.Key).Select (e => Quote (e.Key) + ":" + e.Value))).Append ("}");
		json.Append (",\"errorSamples\":[").Append (string.Join (",", printer.Samples.Select (Quote))).Append ("]");
		json.Append (",\"namespaces\":[").Append (string.Join (",", namespaces.Select (n => "[" + Quote (n.Item1) + "," + Quote (NameOf (n.Item2)) + "," + TypesIn (n.Item2) + "]"))).Append ("]");
		json.Append (",\"types\":[").Append (string.Join (",", types.Select (t => "[" + Quote (t.Item1) + "," + Quote (Join (NameOf (t.Item2), t.Item3.MemberName.Basename + Arity (t.Item3.MemberName.Arity))) + "]"))).Append ("]");
		json.Append (",\"usings\":[").Append (string.Join (",", usings.Select (u => "[" + Quote (u.File) + "," + u.Line + "," + Quote (u.Kind) + "," + Quote (u.Written) + "," + Quote (Result (u.Clause)) + "]"))).Append ("]");
		json.Append ("}");
		Console.WriteLine (json.ToString ());
		return 0;
	}

	static void Walk (string file, NamespaceContainer ns, List<Tuple<string, NamespaceContainer>> namespaces, List<Tuple<string, NamespaceContainer, TypeContainer>> types, List<Using> usings)
	{
		namespaces.Add (Tuple.Create (file, ns));
		if (ns.Usings != null) {
			foreach (var clause in ns.Usings) {
				var kind = clause.Alias != null ? "alias" : clause is UsingType ? "static" : "namespace";
				var written = clause.NamespaceExpression != null ? clause.NamespaceExpression.GetSignatureForError () : "";
				if (clause.Alias != null)
					written = clause.Alias.Value + " = " + written;
				usings.Add (new Using { File = file, Line = clause.Location.Row, Kind = kind, Written = written, Clause = clause });
			}
		}
		foreach (var child in ns.Containers) {
			var nested = child as NamespaceContainer;
			if (nested != null)
				Walk (file, nested, namespaces, types, usings);
			else if (child is TypeDefinition)
				types.Add (Tuple.Create (file, ns, child));
		}
	}

	static string NameOf (NamespaceContainer ns)
	{
		return ns.NS.Name ?? "";
	}

	static int TypesIn (NamespaceContainer ns)
	{
		return ns.Containers.Count (c => c is TypeDefinition);
	}

	static string Result (UsingClause clause)
	{
		var resolved = clause.ResolvedExpression;
		if (resolved == null)
			return "";
		if (resolved is NamespaceExpression) {
			var ns = resolved.GetType ().GetField ("ns", Any);
			return "namespace:" + (ns != null ? ((Namespace) ns.GetValue (resolved)).Name : resolved.GetSignatureForError ());
		}
		var type = resolved.Type;
		if (type == null)
			return "";
		while (type.DeclaringType != null)
			type = type.DeclaringType;
		var definition = type.MemberDefinition as ITypeDefinition;
		return "type:" + Join (definition != null ? definition.Namespace : "", type.Name + Arity (type.Arity));
	}

	static string Arity (int arity)
	{
		return arity > 0 ? "`" + arity : "";
	}

	static string Join (string ns, string name)
	{
		return string.IsNullOrEmpty (ns) ? name : ns + "." + name;
	}

	static object New (string type, params object[] args)
	{
		return Activator.CreateInstance (Compiler.GetType ("Mono.CSharp." + type, true), Any, null, args, null);
	}

	static object Get (object target, string property)
	{
		return target.GetType ().GetProperty (property, Any).GetValue (target);
	}

	static object Invoke (object target, string name, params object[] args)
	{
		for (var type = target.GetType (); type != null; type = type.BaseType) {
			var method = type.GetMethods (Any).FirstOrDefault (m => m.Name == name && m.DeclaringType == type && m.GetParameters ().Length == args.Length
				&& m.GetParameters ().Select ((p, i) => args[i] == null || p.ParameterType.IsInstanceOfType (args[i])).All (ok => ok));
			if (method != null)
				return method.Invoke (target, args);
		}
		throw new MissingMethodException (target.GetType ().FullName, name);
	}

	static string Quote (string text)
	{
		var quoted = new StringBuilder ("\"");
		foreach (var c in text ?? "") {
			if (c == '"' || c == '\\')
				quoted.Append ('\\').Append (c);
			else if (c < ' ')
				quoted.Append ("\\u").Append (((int) c).ToString ("x4"));
			else
				quoted.Append (c);
		}
		return quoted.Append ('"').ToString ();
	}
}
