// Package blame links commits to the agent evidence that wrote them and
// answers line, commit and pull-request blame (DESIGN.md §9). It is not
// built yet: the hook-driven blame issue fills it.
package blame
