/// Walks a JSON value along its schema and collects where it does not fit (``SchemaViolation``).
///
/// Keywords are checked as JSON Schema 2020-12 defines them (JSON Schema Validation §6.1.1 `type`, §6.5.3
/// `required`; JSON Schema Core §10.3.1.2 `items`, §10.3.2.1 `properties`, §10.2.1.2 `anyOf`, §8.2.3.1 `$ref`):
/// a value of a type the schema does not allow is one violation and is not looked into further; an object's
/// missing required members are one violation each, named by the member's path. A value that fits no branch of
/// an `anyOf` is reported through the branch closest to it: the one whose type it has with the fewest
/// violations, or, when it has the type of none, as one type violation naming every branch's types.
struct SchemaValidator {
    /// How deep `$ref`s may lead from the schema the walk started with; a schema that refers to itself would
    /// otherwise be followed as deep as the value goes.
    static let maxReferenceDepth = 64

    let schemas: SchemaSet
    /// How many violations are kept; the rest are only counted (``omitted``).
    let limit: Int
    /// The violations found, in document order (object members by name), at most ``limit``.
    private(set) var violations: [SchemaViolation] = []
    /// How many more were found.
    private(set) var omitted = 0
    private var steps: [SchemaViolation.Step]

    init(schemas: SchemaSet, limit: Int, steps: [SchemaViolation.Step] = []) {
        self.schemas = schemas
        self.limit = limit
        self.steps = steps
    }

    /// Checks `value` against `schema`, at the current path.
    mutating func check(_ value: JSONValue, _ schema: JSONSchema, depth: Int = 0) {
        if let types = schema.types, !types.contains(where: { $0.admits(value) }) {
            report(.type, "expected \(SchemaValidator.describe(types)), got \(JSONSchemaType.name(of: value))")
            return
        }
        if let reference = schema.reference {
            guard depth < SchemaValidator.maxReferenceDepth else {
                report(.type, "schema $ref \(reference) nests deeper than \(SchemaValidator.maxReferenceDepth)")
                return
            }
            // Every $ref of a set resolves: ``SchemaSet`` checks them all when it is made.
            if let target = schemas.target(of: reference, in: schema.document) {
                check(value, target, depth: depth + 1)
            }
        }
        if !schema.anyOf.isEmpty { checkAnyOf(value, schema.anyOf, depth: depth) }
        switch value {
        case .object(let members):
            for name in schema.required where members[name] == nil {
                steps.append(.member(name))
                report(.required, "required member missing")
                steps.removeLast()
            }
            guard !schema.properties.isEmpty else { return }
            for name in members.keys.sorted() {
                guard let member = members[name], let memberSchema = schema.properties[name] else { continue }
                steps.append(.member(name))
                check(member, memberSchema, depth: depth)
                steps.removeLast()
            }
        case .array(let elements):
            guard let items = schema.items else { return }
            for (position, element) in elements.enumerated() {
                steps.append(.index(position))
                check(element, items, depth: depth)
                steps.removeLast()
            }
        default:
            return
        }
    }

    private mutating func checkAnyOf(_ value: JSONValue, _ branches: [JSONSchema], depth: Int) {
        var closest: SchemaValidator?
        var admittedTypes: [JSONSchemaType] = []
        for branch in branches {
            let types = schemas.types(of: branch)
            if let types, !types.contains(where: { $0.admits(value) }) {
                admittedTypes += types.filter { !admittedTypes.contains($0) }
                continue
            }
            var trial = SchemaValidator(schemas: schemas, limit: limit, steps: steps)
            trial.check(value, branch, depth: depth)
            if trial.violations.isEmpty { return }
            if let best = closest, best.violations.count + best.omitted <= trial.violations.count + trial.omitted {
                continue
            }
            closest = trial
        }
        guard let closest else {
            report(.type, "expected \(SchemaValidator.describe(admittedTypes)), got \(JSONSchemaType.name(of: value))")
            return
        }
        for violation in closest.violations { keep(violation) }
        omitted += closest.omitted
    }

    private mutating func report(_ kind: SchemaViolation.Kind, _ message: String) {
        keep(SchemaViolation(at: steps, kind: kind, message: message))
    }

    private mutating func keep(_ violation: SchemaViolation) {
        if violations.count < limit {
            violations.append(violation)
        } else {
            omitted += 1
        }
    }

    /// `integer`, `integer or null`, `array, object or null`.
    static func describe(_ types: [JSONSchemaType]) -> String {
        let names = types.map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
