/// The list page as it was shipped before it walked only the page's indexes: it walks every id of the list
/// and keeps those inside the page, so its cost grows with the list. Kept as a fixture because its step counts
/// pin the renderer's budget accounting on a large loop, and its three loop-invariant `math` calls exercise
/// `TemplateLoopInvariants`.
enum ListPageFixture {
    static let walkingEveryID = #"""
        {{#assign 'rawOffset'}}{{#if request.query.offset}}\#
        {{regexExtract request.query.offset.[0] '^[0-9]+' default='0'}}{{else}}0{{/if}}{{/assign}}\#
        {{#assign 'rawLimit'}}{{#if request.query.limit}}\#
        {{regexExtract request.query.limit.[0] '^[0-9]+' default='0'}}{{else}}0{{/if}}{{/assign}}\#
        {{#assign 'pageOffset'}}{{math rawOffset '+' 0}}{{/assign}}{{#assign 'pageLimit'}}\#
        {{#if (lt (math rawLimit '+' 0) 1)}}20{{else}}{{math rawLimit '+' 0}}{{/if}}{{/assign}}\#
        {{#assign 'pageEnd'}}{{math pageOffset '+' pageLimit}}{{/assign}}{"count":{{parameters.count}}\#
        ,"next":{{#if (lt (math pageEnd '+' 0) parameters.count)}}"https://pokeapi.co{{request.path}}\#
        ?offset={{pageEnd}}&limit={{#if (lt (math pageEnd '+' pageLimit) parameters.count)}}{{pageLimit}}\#
        {{else}}{{math parameters.count '-' pageEnd}}{{/if}}"{{else}}null{{/if}}\#
        ,"previous":{{#if (gt (math pageOffset '+' 0) 0)}}"https://pokeapi.co{{request.path}}\#
        ?offset={{#if (gt (math pageOffset '-' pageLimit) 0)}}{{math pageOffset '-' pageLimit}}\#
        &limit={{pageLimit}}{{else}}0&limit={{pageOffset}}{{/if}}"{{else}}null{{/if}}\#
        ,"results":[{{#each parameters.ids}}\#
        {{#if (and (gte @index (math pageOffset '+' 0)) (lt @index (math pageEnd '+' 0)))}}\#
        {{#if (gt @index (math pageOffset '+' 0))}},{{/if}}{"{{#if ../parameters.names}}\#
        name":"{{lookup ../parameters.names @index}}","{{/if}}url":"{{../parameters.url}}{{this}}/"}{{/if}}\#
        {{/each}}]}
        """#
}
