# Ruby's own answer to "which file of this repository does each require lead to".
#
# Used by test/bench/polyglot.bench.ts as the reference Strata's Ruby edges are
# compared with. Run with ruby (3.1 here) and --disable-gems (installed gems
# play no part); prints one JSON object on stdout:
#
#     {"files": N, "syntaxErrors": N, "loadPath": [...],
#      "edges": [[source, target, specifier], ...], "outside": N,
#      "missing": [[source, specifier], ...], "nonLiteral": N,
#      "autoloads": [[source, target, specifier], ...]}
#
# Each Ruby file of the repository (`git ls-files`: `.rb`, `.rake`,
# `.gemspec`, `Rakefile`, `Gemfile`) is parsed with Ripper (none of its code
# is run); every call of `require` or `require_relative` without a receiver
# whose argument is one string literal (no interpolation), wherever it is
# (in methods, blocks, conditionals), is resolved by Ruby's own loader rules:
#
# - `require_relative 'x'`: the feature `File.expand_path('x',
#   File.dirname(file))` (the file's real path, as Ruby's loader takes it),
#   resolved by `$LOAD_PATH.resolve_feature_path` (`.rb` added when the
#   name has no extension, as `require` does);
# - `require 'x'`: `$LOAD_PATH.resolve_feature_path('x')` with the
#   repository's load path first, then Ruby's own (the standard library): the
#   folders given on the command line (repository-relative: the `lib/` of the
#   repository's root and of every folder holding a `*.gemspec`, as Strata's
#   README says Bundler sets it up, shallowest first).
#
# A feature found outside the repository (the standard library, a `.so`) or
# nowhere (a gem) is no file edge. `autoload :Name, 'x'` calls are resolved
# the same way as `require 'x'` and reported apart (Strata does not follow
# them). A `require` whose feature starts with `./` or `../` is resolved
# from the working directory by Ruby; it is taken here from the repository's
# root.
#
#     ruby --disable-gems ruby-require-reference.rb <repository> [<lib folder> ...]
require 'json'
require 'ripper'

repository = File.realpath(ARGV[0])
libs = ARGV[1..].map { |lib| File.join(repository, lib) }
$LOAD_PATH.unshift(*libs)
Dir.chdir(repository)

RUBY_FILE = %r{(\.rb|\.rake|\.gemspec|(^|/)Rakefile|(^|/)Gemfile)\z}
files = IO.popen(['git', '-C', repository, 'ls-files', '-z'], &:read).split("\0").select { |file| RUBY_FILE.match?(file) }

# The text of a string literal without interpolation, else nil.
def literal(node)
  return nil unless node.is_a?(Array) && node[0] == :string_literal
  content = node[1]
  return '' if content == [:string_content]
  return nil unless content.is_a?(Array) && content[0] == :string_content && content.length == 2
  part = content[1]
  part.is_a?(Array) && part[0] == :@tstring_content ? part[1] : nil
end

# The arguments of an argument list node (`args_add_block`, `arg_paren`).
def arguments(node)
  node = node[1] while node.is_a?(Array) && %i[arg_paren args_add_block].include?(node[0])
  node.is_a?(Array) && !node.empty? && node.all?(Array) ? node : []
end

# Every call [method, arguments] of require, require_relative or autoload without a receiver in the tree.
def calls(node, found = [])
  return found unless node.is_a?(Array)
  case node[0]
  when :command # require 'x'
    if node[1].is_a?(Array) && node[1][0] == :@ident
      found << [node[1][1], arguments(node[2])]
    end
  when :method_add_arg # require('x')
    if node[1].is_a?(Array) && node[1][0] == :fcall && node[1][1].is_a?(Array) && node[1][1][0] == :@ident
      found << [node[1][1][1], arguments(node[2])]
    end
  end
  node.each { |child| calls(child, found) }
  found
end

def inside(path, repository)
  path.start_with?("#{repository}/")
end

result = { files: files.length, syntaxErrors: 0, loadPath: ARGV[1..], edges: [], outside: 0, missing: [], nonLiteral: 0, autoloads: [] }
files.each do |file|
  absolute = File.join(repository, file)
  tree = Ripper.sexp(File.read(absolute, encoding: 'UTF-8'))
  if tree.nil?
    result[:syntaxErrors] += 1
    next
  end
  calls(tree).each do |method, args|
    next unless %w[require require_relative autoload].include?(method)
    argument = method == 'autoload' ? args[1] : args[0]
    feature = literal(argument)
    if feature.nil?
      result[:nonLiteral] += 1 unless method == 'autoload'
      next
    end
    resolved =
      begin
        $LOAD_PATH.resolve_feature_path(method == 'require_relative' ? File.expand_path(feature, File.dirname(File.realpath(absolute))) : feature)
      rescue LoadError # Ruby 2.7 raised where 3.1 answers nil
        nil
      end
    if resolved.nil?
      result[:missing] << [file, feature] unless method == 'autoload'
      next
    end
    target = File.realpath(resolved[1])
    unless inside(target, repository)
      result[:outside] += 1
      next
    end
    edge = [file, target.delete_prefix("#{repository}/"), method == 'require_relative' ? "require_relative #{feature}" : feature]
    (method == 'autoload' ? result[:autoloads] : result[:edges]) << edge
  end
rescue StandardError => e
  warn "#{file}: #{e.message}"
  result[:syntaxErrors] += 1
end
puts JSON.generate(result)
