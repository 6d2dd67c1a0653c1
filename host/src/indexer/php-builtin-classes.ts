/**
 * PHP's built-in classes, interfaces, traits and enums, by the extension that
 * declares them: those of the PHP 8.2 of Debian 12 with the extensions
 * Debian packages (php8.2-cli and php-xml, -intl, -mysql, -curl, -zip,
 * -mbstring, -sqlite3, -gd, -bcmath, -gmp, -pgsql, -ldap, -soap, -tidy,
 * -snmp, -imap, -enchant), as this printed them:
 *
 * ```sh
 * php -r 'foreach (array_merge(get_declared_classes(), get_declared_interfaces(), get_declared_traits()) as $c) {
 *   $r = new ReflectionClass($c); if ($r->isInternal()) echo $r->getExtensionName(), " ", $r->getName(), "\n"; }'
 * ```
 *
 * with, by hand, what PHP 8.3 added (`Override`, the date extension's
 * exceptions, `Random\IntervalBoundary`, `SQLite3Exception`) and PHP 8.4
 * (`Deprecated`, `RoundingMode`, `StreamBucket`,
 * `RequestParseBodyException`); the namespaces an extension owns
 * (`Dom\`, 8.4's new DOM, `Pdo\`, `BcMath\`, `Random\`...) are in
 * `BUILTIN_NAMESPACES`. No PHP is needed at run time (CI has none); to check
 * the list against another PHP, run the line above there.
 */
const CLASSES_BY_EXTENSION: Readonly<Record<string, string>> = {
  Core: 'AllowDynamicProperties ArgumentCountError ArithmeticError ArrayAccess Attribute BackedEnum ClosedGeneratorException Closure CompileError Countable DivisionByZeroError Error ErrorException Exception Fiber FiberError Generator InternalIterator Iterator IteratorAggregate ParseError ReturnTypeWillChange SensitiveParameter SensitiveParameterValue Serializable stdClass Stringable Throwable Traversable TypeError UnhandledMatchError UnitEnum ValueError WeakMap WeakReference',
  curl: 'CURLFile CurlHandle CurlMultiHandle CurlShareHandle CURLStringFile',
  date: 'DateInterval DatePeriod DateTime DateTimeImmutable DateTimeInterface DateTimeZone',
  dom: 'DOMAttr DOMCdataSection DOMCharacterData DOMChildNode DOMComment DOMDocument DOMDocumentFragment DOMDocumentType DOMElement DOMEntity DOMEntityReference DOMException DOMImplementation DOMNamedNodeMap DOMNameSpaceNode DOMNode DOMNodeList DOMNotation DOMParentNode DOMProcessingInstruction DOMText DOMXPath',
  enchant: 'EnchantBroker EnchantDictionary',
  FFI: 'FFI FFI\\CData FFI\\CType FFI\\Exception FFI\\ParserException',
  fileinfo: 'finfo',
  ftp: 'FTP\\Connection',
  gd: 'GdFont GdImage',
  gmp: 'GMP',
  hash: 'HashContext',
  imap: 'IMAP\\Connection',
  intl: 'Collator IntlBreakIterator IntlCalendar IntlChar IntlCodePointBreakIterator IntlDateFormatter IntlDatePatternGenerator IntlException IntlGregorianCalendar IntlIterator IntlPartsIterator IntlRuleBasedBreakIterator IntlTimeZone Locale MessageFormatter Normalizer NumberFormatter ResourceBundle Spoofchecker Transliterator UConverter',
  json: 'JsonException JsonSerializable',
  ldap: 'LDAP\\Connection LDAP\\Result LDAP\\ResultEntry',
  libxml: 'LibXMLError',
  mysqli: 'mysqli mysqli_driver mysqli_result mysqli_sql_exception mysqli_stmt mysqli_warning',
  openssl: 'OpenSSLAsymmetricKey OpenSSLCertificate OpenSSLCertificateSigningRequest',
  PDO: 'PDO PDOException PDORow PDOStatement',
  pgsql: 'PgSql\\Connection PgSql\\Lob PgSql\\Result',
  Phar: 'Phar PharData PharException PharFileInfo',
  random:
    'Random\\BrokenRandomEngineError Random\\CryptoSafeEngine Random\\Engine Random\\Engine\\Mt19937 Random\\Engine\\PcgOneseq128XslRr64 Random\\Engine\\Secure Random\\Engine\\Xoshiro256StarStar Random\\RandomError Random\\RandomException Random\\Randomizer',
  Reflection:
    'Reflection ReflectionAttribute ReflectionClass ReflectionClassConstant ReflectionEnum ReflectionEnumBackedCase ReflectionEnumUnitCase ReflectionException ReflectionExtension ReflectionFiber ReflectionFunction ReflectionFunctionAbstract ReflectionGenerator ReflectionIntersectionType ReflectionMethod ReflectionNamedType ReflectionObject ReflectionParameter ReflectionProperty ReflectionReference ReflectionType ReflectionUnionType ReflectionZendExtension Reflector',
  session: 'SessionHandler SessionHandlerInterface SessionIdInterface SessionUpdateTimestampHandlerInterface',
  shmop: 'Shmop',
  SimpleXML: 'SimpleXMLElement SimpleXMLIterator',
  snmp: 'SNMP SNMPException',
  soap: 'SoapClient SoapFault SoapHeader SoapParam SoapServer SoapVar',
  sockets: 'AddressInfo Socket',
  sodium: 'SodiumException',
  SPL: 'AppendIterator ArrayIterator ArrayObject BadFunctionCallException BadMethodCallException CachingIterator CallbackFilterIterator DirectoryIterator DomainException EmptyIterator FilesystemIterator FilterIterator GlobIterator InfiniteIterator InvalidArgumentException IteratorIterator LengthException LimitIterator LogicException MultipleIterator NoRewindIterator OuterIterator OutOfBoundsException OutOfRangeException OverflowException ParentIterator RangeException RecursiveArrayIterator RecursiveCachingIterator RecursiveCallbackFilterIterator RecursiveDirectoryIterator RecursiveFilterIterator RecursiveIterator RecursiveIteratorIterator RecursiveRegexIterator RecursiveTreeIterator RegexIterator RuntimeException SeekableIterator SplDoublyLinkedList SplFileInfo SplFileObject SplFixedArray SplHeap SplMaxHeap SplMinHeap SplObjectStorage SplObserver SplPriorityQueue SplQueue SplStack SplSubject SplTempFileObject UnderflowException UnexpectedValueException',
  sqlite3: 'SQLite3 SQLite3Result SQLite3Stmt',
  standard: '__PHP_Incomplete_Class AssertionError Directory php_user_filter',
  sysvmsg: 'SysvMessageQueue',
  sysvsem: 'SysvSemaphore',
  sysvshm: 'SysvSharedMemory',
  tidy: 'tidy tidyNode',
  tokenizer: 'PhpToken',
  xml: 'XMLParser',
  xmlreader: 'XMLReader',
  xmlwriter: 'XMLWriter',
  xsl: 'XSLTProcessor',
  zip: 'ZipArchive',
  zlib: 'DeflateContext InflateContext',
};

/** By hand: PHP 8.3's and 8.4's additions (see above). */
const LATER_CLASSES: Readonly<Record<string, string>> = {
  Core: 'Override Deprecated RequestParseBodyException',
  date: 'DateError DateObjectError DateRangeError DateException DateInvalidOperationException DateInvalidTimeZoneException DateMalformedIntervalStringException DateMalformedPeriodStringException DateMalformedStringException',
  random: 'Random\\IntervalBoundary',
  sqlite3: 'SQLite3Exception',
  standard: 'RoundingMode StreamBucket',
};

/** Namespaces an extension declares its classes in (lower-case, with the separator), and that extension. */
const BUILTIN_NAMESPACES: ReadonlyArray<[string, string]> = [
  ['dom\\', 'dom'],
  ['pdo\\', 'PDO'],
  ['bcmath\\', 'bcmath'],
  ['random\\', 'random'],
  ['ffi\\', 'FFI'],
  ['ftp\\', 'ftp'],
  ['pgsql\\', 'pgsql'],
  ['ldap\\', 'ldap'],
  ['imap\\', 'imap'],
  ['odbc\\', 'odbc'],
];

let byName: Map<string, string> | undefined;

/**
 * The package of PHP's own that declares class `name` (fully qualified,
 * without its leading backslash; PHP's class names ignore case), as Composer
 * names platform packages: `php` for the engine's core and the standard
 * extension, `ext-<extension>` for the others (`ext-date`, `ext-spl`,
 * `ext-pdo`); undefined for a class PHP does not declare.
 */
export function builtinPackageOfClass(name: string): string | undefined {
  if (!byName) {
    byName = new Map();
    for (const table of [CLASSES_BY_EXTENSION, LATER_CLASSES])
      for (const [extension, names] of Object.entries(table)) for (const each of names.split(' ')) byName.set(each.toLowerCase(), extension);
  }
  const lower = name.toLowerCase();
  const extension = byName.get(lower) ?? BUILTIN_NAMESPACES.find(([namespace]) => lower.startsWith(namespace))?.[1];
  if (extension === undefined) return undefined;
  return extension === 'Core' || extension === 'standard' ? 'php' : `ext-${extension.toLowerCase()}`;
}
